import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, FormattedMessage, type MessageTag, useIntl } from "react-intl";
import { type ApiError, describeError, failureOf } from "../api/client";
import { isEmailIdentifier, signInResolver, type SignInForm } from "./form";
import { Alert, Button, Field } from "../ui/components";
import { AuthCard, authMessages, safeRedirect } from "./auth-card";
import { SecondFactorStep } from "./second-factor-step";
import { PasskeySignInButton, passkeyInstead, usePasskeyAutofill } from "./passkey-sign-in";
import { EmailSignIn } from "./email-sign-in";
import { SocialButtons } from "./social-buttons";

const messages = defineMessages({
  signInTitle: { id: "auth.signIn.title", defaultMessage: "Sign in" },
  newHere: defineMessage<{ link: MessageTag }>({ id: "auth.signIn.newHere", defaultMessage: "New here? <link>Create an account</link>" }),
  identifier: { id: "auth.signIn.identifier", defaultMessage: "E-mail or username" },
  rememberMe: { id: "auth.signIn.rememberMe", defaultMessage: "Keep me signed in" },
  forgotPassword: { id: "auth.signIn.forgotPassword", defaultMessage: "Forgot your password?" },
  signInButton: { id: "auth.signIn.submit", defaultMessage: "Sign in" },
});

/** Sign-in by e-mail or username and password, a passkey, or a social provider. The first page most people load: it carries no zod. */
export function SignInScreen() {
  const search = useSearch({ from: "/sign-in" });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { formatMessage } = useIntl();
  const [failure, setFailure] = useState<ApiError | null>(null);
  /** The second factors better-auth offers once the password was right and the account has two-factor on. */
  const [secondFactor, setSecondFactor] = useState<string[] | null>(null);
  const form = useForm<SignInForm>({ resolver: signInResolver, defaultValues: { identifier: "", password: "", rememberMe: true } });
  const { errors, isSubmitting } = form.formState;
  const enter = async () => {
    await queryClient.invalidateQueries();
    await navigate({ to: safeRedirect(search.redirect) });
  };
  const autofillFailure = usePasskeyAutofill(enter);
  const submit = form.handleSubmit(async ({ identifier, password, rememberMe }) => {
    setFailure(null);
    // better-auth's client loads on the first submit: the page itself does without it.
    const { authClient, viaAuth } = await import("../api/auth-client");
    let answer: object;
    try {
      answer = await (isEmailIdentifier(identifier)
        ? viaAuth(() => authClient.signIn.email({ email: identifier, password, rememberMe }))
        : viaAuth(() => authClient.signIn.username({ username: identifier, password, rememberMe })));
    } catch (reason) {
      return setFailure(failureOf(reason));
    }
    if ("twoFactorRedirect" in answer) return setSecondFactor("twoFactorMethods" in answer && Array.isArray(answer.twoFactorMethods) ? answer.twoFactorMethods.map(String) : []);
    await enter();
  });
  const shownFailure = failure ?? autofillFailure;
  if (secondFactor) {
    return (
      <AuthCard title={formatMessage(messages.signInTitle)}>
        <SecondFactorStep
          methods={secondFactor}
          onSignedIn={enter}
          alternatives={<PasskeySignInButton onSignedIn={enter} label={passkeyInstead} />}
          onStartOver={() => {
            setSecondFactor(null);
            form.resetField("password");
          }}
        />
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={formatMessage(messages.signInTitle)}
      footer={
        <p>
          <FormattedMessage {...messages.newHere} values={{ link: (chunks) => <Link to="/sign-up">{chunks}</Link> }} />
        </p>
      }
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label={formatMessage(messages.identifier)} error={errors.identifier?.message}>
          {(ids) => <input {...ids} {...form.register("identifier")} autoComplete="username webauthn" />}
        </Field>
        <Field label={formatMessage(authMessages.password)} error={errors.password?.message}>
          {(ids) => <input {...ids} {...form.register("password")} type="password" autoComplete="current-password" />}
        </Field>
        <div className="row-between">
          <label className="checkbox">
            <input type="checkbox" {...form.register("rememberMe")} /> {formatMessage(messages.rememberMe)}
          </label>
          <Link to="/forgot-password">{formatMessage(messages.forgotPassword)}</Link>
        </div>
        {shownFailure && <Alert tone="error">{describeError(shownFailure)}</Alert>}
        <Button type="submit" busy={isSubmitting} className="wide">
          {formatMessage(messages.signInButton)}
        </Button>
      </form>
      <EmailSignIn email={form.watch("identifier")} redirect={safeRedirect(search.redirect)} alternatives={<PasskeySignInButton onSignedIn={enter} />} />
      <SocialButtons mode="sign-in" callbackURL={safeRedirect(search.redirect)} />
    </AuthCard>
  );
}
