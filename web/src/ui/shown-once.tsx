import { Alert, Button } from "./components";
import { CopyButton } from "./copy-button";

/**
 * A secret the server shows this once (a new access token, a new API key): why it must be copied now,
 * the secret with a copy button, and the button that puts it away for good.
 */
export function ShownOnce({ secret, warning, copyLabel, doneLabel, onDone }: { secret: string; warning: string; copyLabel: string; doneLabel: string; onDone: () => void }) {
  return (
    <>
      <Alert tone="info">{warning}</Alert>
      <div className="row">
        <code className="license-key" translate="no">
          {secret}
        </code>
        <CopyButton text={secret} label={copyLabel} />
      </div>
      <div className="actions">
        <Button onClick={onDone}>{doneLabel}</Button>
      </div>
    </>
  );
}
