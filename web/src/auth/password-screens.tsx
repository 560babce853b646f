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

const messages = defineMessages({
  forgotTitle: { id: "auth.forgotPassword.title", defaultMessage: "Reset your password" },
  linkSent: defineMessage<{ email: string }>({ id: "auth.forgotPassword.sent", defaultMessage: "If an account uses {email}, a link to choose a new password is on its way. It works for an hour." }),
  sendLink: { id: "auth.forgotPassword.submit", defaultMessage: "Send the link" },
  requestNewLink: { id: "auth.resetPassword.requestNewLink", defaultMessage: "Request a new link" },
  resetTitle: { id: "auth.resetPassword.title", defaultMessage: "Choose a new password" },
  done: { id: "auth.resetPassword.done", defaultMessage: "Your password is changed and every session was signed out. Sign in with the new one." },
  newPassword: { id: "auth.resetPassword.newPassword", defaultMessage: "New password" },
  save: { id: "auth.resetPassword.submit", defaultMessage: "Save the new password" },
});

export function ForgotPasswordScreen() {
  const { formatMessage } = useIntl();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const form = useForm({ resolver: zodResolver(forgotPasswordForm), defaultValues: { email: "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ email }) => {
    setFailure(null);
    try {
      await viaAuth(() => authClient.requestPasswordReset({ email, redirectTo: "/reset-password" }));
    } catch (reason) {
      return setFailure(failureOf(reason));
    }
    setSentTo(email);
  });
  return (
    <AuthCard title={formatMessage(messages.forgotTitle)} footer={<Link to="/sign-in">{formatMessage(authMessages.backToSignIn)}</Link>}>
      {sentTo ? (
        <Alert tone="success">{formatMessage(messages.linkSent, { email: sentTo })}</Alert>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Field label={formatMessage(authMessages.email)} error={errors.email?.message}>
            {(ids) => <input {...ids} {...form.register("email")} type="email" autoComplete="email" />}
          </Field>
          {failure && <Alert tone="error">{describeError(failure)}</Alert>}
          <Button type="submit" busy={isSubmitting} className="wide">
            {formatMessage(messages.sendLink)}
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
        <Alert tone="success">{formatMessage(messages.done)}</Alert>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <NewPasswordFields label={formatMessage(messages.newPassword)} field={(name) => form.register(name)} errors={{ password: errors.password?.message, confirm: errors.confirm?.message }} />
          {failure && <Alert tone="error">{describeError(failure)}</Alert>}
          <Button type="submit" busy={isSubmitting} className="wide">
            {formatMessage(messages.save)}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
