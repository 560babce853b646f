import { useEffect, useRef, useState, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import { defineMessages, useIntl } from "react-intl";
import { type ApiError, describeError, failureOf } from "../api/client";
import { Alert, Button, Field } from "../ui/components";

const messages = defineMessages({
  title: { id: "auth.twoFactor.title", defaultMessage: "Confirm it is you" },
  appLead: { id: "auth.twoFactor.appLead", defaultMessage: "Enter the 6-digit code from your authenticator app." },
  emailLead: { id: "auth.twoFactor.emailLead", defaultMessage: "We e-mailed you a 6-digit code. Enter it here; it works for 3 minutes." },
  backupLead: { id: "auth.twoFactor.backupLead", defaultMessage: "Enter one of the backup codes you saved when you set up two-factor authentication. Each works once." },
  code: { id: "auth.twoFactor.code", defaultMessage: "Code" },
  backupCode: { id: "auth.twoFactor.backupCode", defaultMessage: "Backup code" },
  codeMissing: { id: "auth.twoFactor.codeMissing", defaultMessage: "Enter the code" },
  trustDevice: { id: "auth.twoFactor.trustDevice", defaultMessage: "Trust this device for 30 days" },
  verify: { id: "auth.twoFactor.verify", defaultMessage: "Verify" },
  otherWays: { id: "auth.twoFactor.otherWays", defaultMessage: "Other ways to confirm" },
  useApp: { id: "auth.twoFactor.useApp", defaultMessage: "Use my authenticator app" },
  useBackupCode: { id: "auth.twoFactor.useBackupCode", defaultMessage: "Use a backup code" },
  emailMeCode: { id: "auth.twoFactor.emailMeCode", defaultMessage: "E-mail me a code" },
  sendAgain: { id: "auth.twoFactor.sendAgain", defaultMessage: "Send a new code" },
  codeSent: { id: "auth.twoFactor.codeSent", defaultMessage: "A new code is on its way." },
  startOver: { id: "auth.twoFactor.startOver", defaultMessage: "Sign in with another account" },
});

/** The ways of giving a second factor: better-auth's methods, and backup codes, which every authenticator comes with. */
type Method = "totp" | "otp" | "backup";

interface CodeForm {
  code: string;
  trustDevice: boolean;
}

/**
 * The second step of a password sign-in that better-auth held back (`twoFactorRedirect`): a code from the
 * authenticator app, or one of the recovery paths (a backup code, a code by e-mail). `alternatives` is the
 * slot for other ways to finish signing in (a passkey), shown with the recovery paths.
 */
export function SecondFactorStep({
  methods,
  onSignedIn,
  onStartOver,
  alternatives,
}: {
  methods: string[];
  onSignedIn: () => Promise<void>;
  onStartOver: () => void;
  alternatives?: ReactNode;
}) {
  const { formatMessage } = useIntl();
  const [method, setMethod] = useState<Method>(methods.includes("totp") ? "totp" : "otp");
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const form = useForm<CodeForm>({ defaultValues: { code: "", trustDevice: false } });
  const { errors, isSubmitting } = form.formState;

  const sendCode = async () => {
    setFailure(null);
    const { authClient, viaAuth } = await import("../api/auth-client");
    try {
      await viaAuth(() => authClient.twoFactor.sendOtp());
    } catch (reason) {
      setFailure(failureOf(reason));
      return false;
    }
    return true;
  };

  // Without an authenticator app, the e-mailed code is the way: it is sent at once, and once.
  const sentFirst = useRef(false);
  useEffect(() => {
    if (methods.includes("totp") || sentFirst.current) return;
    sentFirst.current = true;
    void sendCode();
  });

  const choose = async (next: Method) => {
    setMethod(next);
    setFailure(null);
    setNotice(null);
    form.reset({ code: "", trustDevice: form.getValues("trustDevice") });
    if (next === "otp") await sendCode();
  };

  const submit = form.handleSubmit(async ({ code, trustDevice }) => {
    setFailure(null);
    setNotice(null);
    const { authClient, viaAuth } = await import("../api/auth-client");
    const given = code.trim();
    try {
      await viaAuth(() => {
        if (method === "totp") return authClient.twoFactor.verifyTotp({ code: given, trustDevice });
        if (method === "otp") return authClient.twoFactor.verifyOtp({ code: given, trustDevice });
        return authClient.twoFactor.verifyBackupCode({ code: given, trustDevice });
      });
    } catch (reason) {
      return setFailure(failureOf(reason));
    }
    await onSignedIn();
  });

  const lead = { totp: messages.appLead, otp: messages.emailLead, backup: messages.backupLead }[method];
  const isBackup = method === "backup";
  return (
    <div className="second-factor">
      <h2>{formatMessage(messages.title)}</h2>
      <p className="muted">{formatMessage(lead)}</p>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label={formatMessage(isBackup ? messages.backupCode : messages.code)} error={errors.code?.message}>
          {(ids) => (
            <input
              {...ids}
              {...form.register("code", { validate: (value) => value.trim() !== "" || formatMessage(messages.codeMissing) })}
              key={method}
              autoComplete="one-time-code"
              inputMode={isBackup ? "text" : "numeric"}
              pattern={isBackup ? undefined : "[0-9]*"}
              maxLength={isBackup ? 11 : 6}
              autoFocus
            />
          )}
        </Field>
        <label className="checkbox">
          <input type="checkbox" {...form.register("trustDevice")} /> {formatMessage(messages.trustDevice)}
        </label>
        {failure && <Alert tone="error">{describeError(failure)}</Alert>}
        {notice && <Alert tone="success">{notice}</Alert>}
        <Button type="submit" busy={isSubmitting} className="wide">
          {formatMessage(messages.verify)}
        </Button>
      </form>
      <h3 className="second-factor-others">{formatMessage(messages.otherWays)}</h3>
      <div className="second-factor-ways">
        {method !== "totp" && methods.includes("totp") && (
          <Button variant="secondary" onClick={() => void choose("totp")}>
            {formatMessage(messages.useApp)}
          </Button>
        )}
        {method !== "backup" && methods.includes("totp") && (
          <Button variant="secondary" onClick={() => void choose("backup")}>
            {formatMessage(messages.useBackupCode)}
          </Button>
        )}
        {method === "otp" ? (
          <Button variant="secondary" onClick={() => void sendCode().then((sent) => sent && setNotice(formatMessage(messages.codeSent)))}>
            {formatMessage(messages.sendAgain)}
          </Button>
        ) : (
          <Button variant="secondary" onClick={() => void choose("otp")}>
            {formatMessage(messages.emailMeCode)}
          </Button>
        )}
        {alternatives}
        <Button variant="ghost" onClick={onStartOver}>
          {formatMessage(messages.startOver)}
        </Button>
      </div>
    </div>
  );
}
