import { useState } from "react";
import { Button } from "./components";

/** A document offered for download: its button's label, and how to get the address of its file. */
export interface OfferedDocument {
  label: string;
  /** The file's address, made first if need be; rejects when it cannot be had. */
  urlOf: () => Promise<string>;
}

/**
 * One button per document (an order's receipt, its invoice): pressed, it fetches the file's address
 * and downloads it, saying below why when that fails.
 */
export function DocumentButtons({ documents, failureOf }: { documents: OfferedDocument[]; failureOf: (reason: unknown) => string }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const download = async (document: OfferedDocument) => {
    setBusy(document.label);
    setFailure(null);
    try {
      window.location.assign(await document.urlOf());
    } catch (reason) {
      setFailure(failureOf(reason));
    }
    setBusy(null);
  };
  // No box of its own: the buttons sit in whatever row the screen puts them in.
  return (
    <>
      {documents.map((document) => (
        <Button key={document.label} variant="secondary" busy={busy === document.label} onClick={() => void download(document)}>
          {document.label}
        </Button>
      ))}
      {failure && <p className="field-error">{failure}</p>}
    </>
  );
}
