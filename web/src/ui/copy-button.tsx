import { useState } from "react";
import { defineMessages, useIntl } from "react-intl";
import { Button } from "./components";

const messages = defineMessages({
  copy: { id: "ui.copy.copy", defaultMessage: "Copy" },
  copied: { id: "ui.copy.copied", defaultMessage: "Copied." },
  copyFailed: { id: "ui.copy.failed", defaultMessage: "Could not copy: select the text and copy it yourself." },
});

/** Copies `text`, and says so where a screen reader hears it; `label` names what is copied ("Copy the license key"). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const { formatMessage } = useIntl();
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <>
      <Button variant="secondary" aria-label={label} onClick={() => void copy()}>
        {formatMessage(messages.copy)}
      </Button>
      <span role="status" className="hint">
        {state === "copied" ? formatMessage(messages.copied) : state === "failed" ? formatMessage(messages.copyFailed) : ""}
      </span>
    </>
  );
}
