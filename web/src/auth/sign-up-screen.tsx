import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, FormattedMessage, type MessageTag, useIntl } from "react-intl";
import { type ApiError, describeError, failureOf } from "../api/client";
import { signUpForm, type SignUpForm } from "./account-forms";
import { Alert, Button, Field } from "../ui/components";
import { AuthCard, authMessages, NewPasswordFields } from "./auth-card";
import { SocialButtons } from "./social-buttons";

const messages = defineMessages({
  checkInboxTitle: { id: "auth.signUp.checkInbox.title", defaultMessage: "Check your inbox" },
  checkInbox: defineMessage<{ email: string; strong: MessageTag }>({ id: "auth.signUp.checkInbox.text", defaultMessage: "We sent a link to <strong>{email}</strong>. Open it to verify your address, then sign in." }),
  goToSignIn: { id: "auth.signUp.goToSignIn", defaultMessage: "Go to sign in" },
  signUpTitle: { id: "auth.signUp.title", defaultMessage: "Create your account" },
  haveAccount: defineMessage<{ link: MessageTag }>({ id: "auth.signUp.haveAccount", defaultMessage: "Already have an account? <link>Sign in</link>" }),
  username: { id: "auth.signUp.username", defaultMessage: "Username (optional)" },
  usernameHint: { id: "auth.signUp.usernameHint", defaultMessage: "3–30 letters, digits, _ or . — lets you sign in without your e-mail." },
  createAccount: { id: "auth.signUp.submit", defaultMessage: "Create account" },
});

export function SignUpScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { formatMessage } = useIntl();
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [checkInbox, setCheckInbox] = useState<string | null>(null);
  const form = useForm<SignUpForm>({ resolver: zodResolver(signUpForm), defaultValues: { name: "", email: "", username: "", password: "", confirm: "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ name, email, username, password }) => {
    setFailure(null);
    const { authClient, viaAuth } = await import("../api/auth-client");
    let result: { token: string | null };
    try {
      result = await viaAuth(() => authClient.signUp.email({ name, email, password, callbackURL: "/verified", ...(username ? { username } : {}) }));
    } catch (reason) {
      return setFailure(failureOf(reason));
    }
    // With verification required there is no session yet: the person must open the mailed link first.
    if (!result.token) return setCheckInbox(email);
    await queryClient.invalidateQueries();
    await navigate({ to: "/" });
  });
  if (checkInbox) {
    return (
      <AuthCard title={formatMessage(messages.checkInboxTitle)}>
        <Alert tone="success">
          <FormattedMessage {...messages.checkInbox} values={{ email: checkInbox, strong: (chunks) => <strong>{chunks}</strong> }} />
        </Alert>
        <Link to="/sign-in">{formatMessage(messages.goToSignIn)}</Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={formatMessage(messages.signUpTitle)}
      footer={
        <p>
          <FormattedMessage {...messages.haveAccount} values={{ link: (chunks) => <Link to="/sign-in">{chunks}</Link> }} />
        </p>
      }
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label={formatMessage(authMessages.name)} error={errors.name?.message}>
          {(ids) => <input {...ids} {...form.register("name")} autoComplete="name" />}
        </Field>
        <Field label={formatMessage(authMessages.email)} error={errors.email?.message}>
          {(ids) => <input {...ids} {...form.register("email")} type="email" autoComplete="email" />}
        </Field>
        <Field label={formatMessage(messages.username)} hint={formatMessage(messages.usernameHint)} error={errors.username?.message}>
          {(ids) => <input {...ids} {...form.register("username")} autoComplete="username" />}
        </Field>
        <NewPasswordFields label={formatMessage(authMessages.password)} field={(name) => form.register(name)} errors={{ password: errors.password?.message, confirm: errors.confirm?.message }} />
        {failure && <Alert tone="error">{describeError(failure)}</Alert>}
        <Button type="submit" busy={isSubmitting} className="wide">
          {formatMessage(messages.createAccount)}
        </Button>
      </form>
      <SocialButtons mode="sign-up" />
    </AuthCard>
  );
}
