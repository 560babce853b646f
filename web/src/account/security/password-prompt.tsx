import { useState } from "react";
import { defineMessages, useIntl } from "react-intl";
import { describeFailure } from "../../api/client";
import { Alert, Button, Field } from "../../ui/components";

/** Words the security cards share. */
export const securityMessages = defineMessages({
  cancel: { id: "account.security.cancel", defaultMessage: "Cancel" },
});

const messages = defineMessages({
  password: { id: "account.security.password", defaultMessage: "Your password" },
  passwordMissing: { id: "account.security.passwordMissing", defaultMessage: "Enter your password" },
});

/** Asks for the password before a change to how the account is protected; `onPassword` rejects with the server's refusal. */
export function PasswordPrompt({
  submitLabel,
  danger = false,
  onPassword,
  onCancel,
}: {
  submitLabel: string;
  danger?: boolean;
  onPassword: (password: string) => Promise<unknown>;
  onCancel: () => void;
}) {
  const { formatMessage } = useIntl();
  const [password, setPassword] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!password) return setProblem(formatMessage(messages.passwordMissing));
    setBusy(true);
    setProblem(null);
    try {
      await onPassword(password);
    } catch (reason) {
      setProblem(describeFailure(reason));
      setBusy(false);
    }
  };
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      noValidate
    >
      <Field label={formatMessage(messages.password)}>
        {(ids) => <input {...ids} type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} autoFocus />}
      </Field>
      {problem && <Alert tone="error">{problem}</Alert>}
      <div className="actions">
        <Button type="submit" variant={danger ? "danger" : "primary"} busy={busy}>
          {submitLabel}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {formatMessage(securityMessages.cancel)}
        </Button>
      </div>
    </form>
  );
}
