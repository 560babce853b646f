import { useState } from "react";
import { defineMessages, useIntl } from "react-intl";
import type { Session } from "../../api/auth-client";
import { Alert, Button, Card } from "../../ui/components";
import { AuthenticatorSetup } from "./authenticator-setup";
import { BackupCodes } from "./backup-codes";
import { PasswordPrompt } from "./password-prompt";
import { useDisableTwoFactor, useEnableTwoFactor, useNewBackupCodes } from "./queries";

const messages = defineMessages({
  title: { id: "account.twoFactor.title", defaultMessage: "Two-factor authentication" },
  off: { id: "account.twoFactor.off", defaultMessage: "Off. Add a second step to signing in: a code from an authenticator app on your phone, so a stolen password alone is not enough." },
  on: { id: "account.twoFactor.on", defaultMessage: "On. Signing in asks for a code from your authenticator app, or a backup code, or a code by e-mail." },
  turnOn: { id: "account.twoFactor.turnOn", defaultMessage: "Set up two-factor authentication" },
  turnOff: { id: "account.twoFactor.turnOff", defaultMessage: "Turn off" },
  newCodes: { id: "account.twoFactor.newCodes", defaultMessage: "New backup codes" },
  newCodesHint: { id: "account.twoFactor.newCodesHint", defaultMessage: "New backup codes replace the old ones: those stop working." },
  continue: { id: "account.twoFactor.continue", defaultMessage: "Continue" },
  turnedOn: { id: "account.twoFactor.turnedOn", defaultMessage: "Two-factor authentication is on." },
  turnedOff: { id: "account.twoFactor.turnedOff", defaultMessage: "Two-factor authentication is off." },
});

/** Where the card is: what it shows and which step it waits for. */
type Step =
  | { kind: "idle"; notice?: string }
  | { kind: "password"; purpose: "enable" | "disable" | "newCodes" }
  | { kind: "scan"; totpURI: string; backupCodes: string[] }
  | { kind: "codes"; codes: string[]; notice?: string };

/** Turns two-factor authentication on (an authenticator app, then its backup codes) and off, and renews the backup codes. */
export function TwoFactorCard({ session }: { session: Session }) {
  const { formatMessage } = useIntl();
  const [step, setStep] = useState<Step>({ kind: "idle" });
  const enable = useEnableTwoFactor();
  const disable = useDisableTwoFactor();
  const newCodes = useNewBackupCodes();
  const enabled = session.user.twoFactorEnabled === true;
  const idle = () => setStep({ kind: "idle" });

  const withPassword = (purpose: "enable" | "disable" | "newCodes") => async (password: string) => {
    if (purpose === "enable") {
      const { totpURI, backupCodes } = await enable.mutateAsync(password);
      return setStep({ kind: "scan", totpURI, backupCodes });
    }
    if (purpose === "disable") {
      await disable.mutateAsync(password);
      return setStep({ kind: "idle", notice: formatMessage(messages.turnedOff) });
    }
    setStep({ kind: "codes", codes: (await newCodes.mutateAsync(password)).backupCodes });
  };

  const body = () => {
    switch (step.kind) {
      case "password":
        return (
          <>
            {step.purpose === "newCodes" && <p className="hint">{formatMessage(messages.newCodesHint)}</p>}
            <PasswordPrompt
            submitLabel={formatMessage(step.purpose === "disable" ? messages.turnOff : messages.continue)}
            danger={step.purpose === "disable"}
            onPassword={withPassword(step.purpose)}
              onCancel={idle}
            />
          </>
        );
      case "scan":
        return <AuthenticatorSetup totpURI={step.totpURI} onConfirmed={() => setStep({ kind: "codes", codes: step.backupCodes, notice: formatMessage(messages.turnedOn) })} onCancel={idle} />;
      case "codes":
        return (
          <>
            {step.notice && <Alert tone="success">{step.notice}</Alert>}
            <BackupCodes codes={step.codes} onDone={idle} />
          </>
        );
      case "idle":
        return (
          <>
            {step.notice && <Alert tone="success">{step.notice}</Alert>}
            <div className="actions">
              {enabled ? (
                <>
                  <Button variant="secondary" onClick={() => setStep({ kind: "password", purpose: "newCodes" })}>
                    {formatMessage(messages.newCodes)}
                  </Button>
                  <Button variant="danger" onClick={() => setStep({ kind: "password", purpose: "disable" })}>
                    {formatMessage(messages.turnOff)}
                  </Button>
                </>
              ) : (
                <Button onClick={() => setStep({ kind: "password", purpose: "enable" })}>{formatMessage(messages.turnOn)}</Button>
              )}
            </div>
          </>
        );
    }
  };

  return (
    <Card title={formatMessage(messages.title)} description={formatMessage(enabled ? messages.on : messages.off)}>
      {body()}
    </Card>
  );
}
