import { useState } from "react";
import { defineMessages, useIntl } from "react-intl";
import { describeFailure } from "../../api/client";
import { Alert, Button, Field } from "../../ui/components";
import { QrCode } from "../../ui/qr-code";
import { securityMessages } from "./password-prompt";
import { useConfirmAuthenticator } from "./queries";

const messages = defineMessages({
  scan: { id: "account.twoFactor.setup.scan", defaultMessage: "1. Scan this QR code with an authenticator app (such as Google Authenticator, 1Password or Aegis)." },
  qrLabel: { id: "account.twoFactor.setup.qrLabel", defaultMessage: "QR code for your authenticator app" },
  secret: { id: "account.twoFactor.setup.secret", defaultMessage: "Cannot scan it? Enter this key in the app instead:" },
  secretLabel: { id: "account.twoFactor.setup.secretLabel", defaultMessage: "Secret key" },
  enterCode: { id: "account.twoFactor.setup.enterCode", defaultMessage: "2. Enter the 6-digit code the app shows" },
  codeMissing: { id: "account.twoFactor.setup.codeMissing", defaultMessage: "Enter the 6-digit code" },
  confirm: { id: "account.twoFactor.setup.confirm", defaultMessage: "Turn on" },
});

/** The key in the URI, in groups of four, as people type it. */
const secretOf = (totpURI: string) => (new URL(totpURI).searchParams.get("secret") ?? "").replace(/(.{4})(?=.)/g, "$1 ");

/** The app is given the secret (QR code, or the key typed in), and proves it holds it with a code: that turns two-factor on. */
export function AuthenticatorSetup({ totpURI, onConfirmed, onCancel }: { totpURI: string; onConfirmed: () => void; onCancel: () => void }) {
  const { formatMessage } = useIntl();
  const confirm = useConfirmAuthenticator();
  const [code, setCode] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async () => {
    const given = code.trim();
    if (!/^\d{6}$/.test(given)) return setProblem(formatMessage(messages.codeMissing));
    setProblem(null);
    try {
      await confirm.mutateAsync(given);
    } catch (reason) {
      return setProblem(describeFailure(reason));
    }
    onConfirmed();
  };
  return (
    <div className="authenticator-setup">
      <p>{formatMessage(messages.scan)}</p>
      <QrCode text={totpURI} label={formatMessage(messages.qrLabel)} size={184} />
      <p className="hint">{formatMessage(messages.secret)}</p>
      <p>
        <code className="totp-secret" aria-label={formatMessage(messages.secretLabel)}>
          {secretOf(totpURI)}
        </code>
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
        noValidate
      >
        <Field label={formatMessage(messages.enterCode)}>
          {(ids) => (
            <input {...ids} value={code} onChange={(event) => setCode(event.target.value)} autoComplete="one-time-code" inputMode="numeric" pattern="[0-9]*" maxLength={6} />
          )}
        </Field>
        {problem && <Alert tone="error">{problem}</Alert>}
        <div className="actions">
          <Button type="submit" busy={confirm.isPending}>
            {formatMessage(messages.confirm)}
          </Button>
          <Button variant="secondary" onClick={onCancel}>
            {formatMessage(securityMessages.cancel)}
          </Button>
        </div>
      </form>
    </div>
  );
}
