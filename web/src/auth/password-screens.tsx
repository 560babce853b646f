import { zodResolver } from "@hookform/resolvers/zod";
import { Link, useSearch } from "@tanstack/react-router";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { authClient, viaAuth } from "../api/auth-client";
import { type ApiError, describeError, failureOf } from "../api/client";
import { forgotPasswordForm, resetPasswordForm } from "./account-forms";
import { Alert, Button, Field } from "../ui/components";
import { AuthCard, authMessages, NewPasswordFields } from "./auth-card";
import { describeFlowError } from "./messages";
import { requestResetCode, ResetByCode } from "./reset-by-code";

const messages = defineMessages({
  forgotTitle: { id: "auth.forgotPassword.title", defaultMessage: "Reset your password" },
  linkSent: defineMessage<{ email: string }>({ id: "auth.forgotPassword.sent", defaultMessage: "If an account uses {email}, a link to choose a new password is on its way. It works for an hour." }),
  sendLink: { id: "auth.forgotPassword.submit", defaultMessage: "Send the link" },
  sendCode: { id: "auth.forgotPassword.sendCode", defaultMessage: "E-mail me a code instead" },
  requestNewLink: { id: "auth.resetPassword.requestNewLink", defaultMessage: "Request a new link" },
  resetTitle: { id: "auth.resetPassword.title", defaultMessage: "Choose a new password" },
});

export function ForgotPasswordScreen() {
  const { formatMessage } = useIntl();
  const [sent, setSent] = useState<{ to: string; by: "link" | "code" } | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const form = useForm({ resolver: zodResolver(forgotPasswordForm), defaultValues: { email: "" } });
  const { errors, isSubmitting } = form.formState;
  const send = (by: "link" | "code") =>
    form.handleSubmit(async ({ email }) => {
      setFailure(null);
      try {
        await (by === "link" ? viaAuth(() => authClient.requestPasswordReset({ email, redirectTo: "/reset-password" })) : requestResetCode(email));
      } catch (reason) {
        return setFailure(failureOf(reason));
      }
      setSent({ to: email, by });
    });
  return (
    <AuthCard title={formatMessage(messages.forgotTitle)} footer={<Link to="/sign-in">{formatMessage(authMessages.backToSignIn)}</Link>}>
      {sent?.by === "code" ? (
        <ResetByCode email={sent.to} />
      ) : sent ? (
        <Alert tone="success">{formatMessage(messages.linkSent, { email: sent.to })}</Alert>
      ) : (
        <form onSubmit={(event) => void send("link")(event)} noValidate>
          <Field label={formatMessage(authMessages.email)} error={errors.email?.message}>
            {(ids) => <input {...ids} {...form.register("email")} type="email" autoComplete="email" />}
          </Field>
          {failure && <Alert tone="error">{describeError(failure)}</Alert>}
          <Button type="submit" busy={isSubmitting} className="wide">
            {formatMessage(messages.sendLink)}
          </Button>
          <Button variant="ghost" disabled={isSubmitting} onClick={(event) => void send("code")(event)}>
            {formatMessage(messages.sendCode)}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}

export function ResetPasswordScreen() {
  const search = useSearch({ from: "/reset-password" });
  const { formatMessage } = useIntl();
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const form = useForm({ resolver: zodResolver(resetPasswordForm), defaultValues: { password: "", confirm: "" } });
  const { errors, isSubmitting } = form.formState;
  if (search.error || !search.token) {
    return (
      <AuthCard title={formatMessage(messages.forgotTitle)} footer={<Link to="/forgot-password">{formatMessage(messages.requestNewLink)}</Link>}>
        <Alert tone="error">{describeFlowError(search.error ?? "INVALID_TOKEN")}</Alert>
      </AuthCard>
    );
  }
  const token = search.token;
  const submit = form.handleSubmit(async ({ password }) => {
    setFailure(null);
    try {
      await viaAuth(() => authClient.resetPassword({ newPassword: password, token }));
    } catch (reason) {
      return setFailure(failureOf(reason));
    }
    setDone(true);
  });
  return (
    <AuthCard title={formatMessage(messages.resetTitle)} footer={<Link to="/sign-in">{formatMessage(authMessages.backToSignIn)}</Link>}>
      {done ? (
        <Alert tone="success">{formatMessage(authMessages.passwordChanged)}</Alert>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <NewPasswordFields label={formatMessage(authMessages.newPassword)} field={(name) => form.register(name)} errors={{ password: errors.password?.message, confirm: errors.confirm?.message }} />
          {failure && <Alert tone="error">{describeError(failure)}</Alert>}
          <Button type="submit" busy={isSubmitting} className="wide">
            {formatMessage(authMessages.savePassword)}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
