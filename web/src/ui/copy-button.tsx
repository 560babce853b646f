import { useEffect, useState } from "react";
import { defineMessages, useIntl } from "react-intl";
import { Button } from "./components";

const messages = defineMessages({
  copied: { id: "ui.copy.copied", defaultMessage: "Copied" },
  failed: { id: "ui.copy.failed", defaultMessage: "Could not copy: select the text and copy it yourself." },
});

/** Copies `text` to the clipboard and says so for a moment (to screen readers too), or says it could not. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const { formatMessage } = useIntl();
  const [outcome, setOutcome] = useState<"copied" | "failed" | null>(null);
  useEffect(() => {
    if (outcome !== "copied") return;
    const timer = setTimeout(() => setOutcome(null), 3000);
    return () => clearTimeout(timer);
  }, [outcome]);
  return (
    <span className="copy">
      <Button
        variant="secondary"
        onClick={() =>
          void navigator.clipboard.writeText(text).then(
            () => setOutcome("copied"),
            () => setOutcome("failed"),
          )
        }
      >
        {label}
      </Button>
      <span role="status" className={outcome === "failed" ? "field-error" : "muted"}>
        {outcome && formatMessage(messages[outcome])}
      </span>
    </span>
  );
}
