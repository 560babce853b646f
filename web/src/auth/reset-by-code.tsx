import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { authClient, viaAuth } from "../api/auth-client";
import { type ApiError, describeError, failureOf } from "../api/client";
import { Alert, Button, Field } from "../ui/components";
import { codeResetForm } from "./account-forms";
import { authMessages, NewPasswordFields } from "./auth-card";

const messages = defineMessages({
  codeSent: defineMessage<{ email: string }>({ id: "auth.resetByCode.sent", defaultMessage: "If an account uses {email}, a 6-digit code is on its way. It works once, for 5 minutes." }),
});

/** Asks for a code that resets the password of `email`'s account; nothing tells whether it has one. */
export const requestResetCode = (email: string) => viaAuth(() => authClient.emailOtp.requestPasswordReset({ email }));

/** The second step of a reset by code: the code from the mail and the new password, twice. */
export function ResetByCode({ email }: { email: string }) {
  const { formatMessage } = useIntl();
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [resending, setResending] = useState(false);
  const form = useForm({ resolver: zodResolver(codeResetForm), defaultValues: { otp: "", password: "", confirm: "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ otp, password }) => {
    setFailure(null);
    try {
      await viaAuth(() => authClient.emailOtp.resetPassword({ email, otp, password }));
    } catch (reason) {
      return setFailure(failureOf(reason));
    }
    setDone(true);
  });
  const newCode = async () => {
    setFailure(null);
    setResending(true);
    form.resetField("otp");
    await requestResetCode(email).catch((reason: unknown) => setFailure(failureOf(reason)));
    setResending(false);
  };
  if (done) return <Alert tone="success">{formatMessage(authMessages.passwordChanged)}</Alert>;
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Alert tone="info">{formatMessage(messages.codeSent, { email })}</Alert>
      <Field label={formatMessage(authMessages.oneTimeCode)} error={errors.otp?.message}>
        {(ids) => <input {...ids} {...form.register("otp")} inputMode="numeric" autoComplete="one-time-code" maxLength={6} className="code-input" />}
      </Field>
      <NewPasswordFields label={formatMessage(authMessages.newPassword)} field={(name) => form.register(name)} errors={{ password: errors.password?.message, confirm: errors.confirm?.message }} />
      {failure && <Alert tone="error">{describeError(failure)}</Alert>}
      <Button type="submit" busy={isSubmitting} className="wide">
        {formatMessage(authMessages.savePassword)}
      </Button>
      <Button variant="ghost" busy={resending} onClick={() => void newCode()}>
        {formatMessage(authMessages.resendCode)}
      </Button>
    </form>
  );
}
