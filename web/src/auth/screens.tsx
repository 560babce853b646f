import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { useState, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import { authClient, viaAuth } from "../api/auth-client";
import { describeError, type ApiError } from "../api/client";
import {
  forgotPasswordForm,
  isEmailIdentifier,
  resetPasswordForm,
  signInForm,
  signUpForm,
  type SignInForm,
  type SignUpForm,
} from "../forms/schemas";
import { Alert, Button, Field } from "../ui/components";
import { describeFlowError } from "./messages";
import { SocialButtons } from "./social-buttons";

/** The narrow card the sign-in screens share. */
function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <section className="auth-card">
      <h1>{title}</h1>
      {children}
      {footer && <div className="auth-footer">{footer}</div>}
    </section>
  );
}

/** Only paths on this site are followed after signing in. */
export const safeRedirect = (target: string | undefined) => (target?.startsWith("/") && !target.startsWith("//") ? target : "/");

export function SignInScreen() {
  const search = useSearch({ from: "/sign-in" });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<ApiError | null>(null);
  const form = useForm<SignInForm>({ resolver: zodResolver(signInForm), defaultValues: { identifier: "", password: "", rememberMe: true } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ identifier, password, rememberMe }) => {
    setFailure(null);
    const result = isEmailIdentifier(identifier)
      ? await viaAuth(() => authClient.signIn.email({ email: identifier, password, rememberMe }))
      : await viaAuth(() => authClient.signIn.username({ username: identifier, password, rememberMe }));
    if (result.error) return setFailure(result.error);
    await queryClient.invalidateQueries();
    await navigate({ to: safeRedirect(search.redirect) });
  });
  return (
    <AuthCard
      title="Sign in"
      footer={
        <p>
          New here? <Link to="/sign-up">Create an account</Link>
        </p>
      }
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label="E-mail or username" error={errors.identifier?.message}>
          {(ids) => <input {...ids} {...form.register("identifier")} autoComplete="username" />}
        </Field>
        <Field label="Password" error={errors.password?.message}>
          {(ids) => <input {...ids} {...form.register("password")} type="password" autoComplete="current-password" />}
        </Field>
        <div className="row-between">
          <label className="checkbox">
            <input type="checkbox" {...form.register("rememberMe")} /> Keep me signed in
          </label>
          <Link to="/forgot-password">Forgot your password?</Link>
        </div>
        {failure && <Alert tone="error">{describeError(failure)}</Alert>}
        <Button type="submit" busy={isSubmitting} className="wide">
          Sign in
        </Button>
      </form>
      <SocialButtons mode="sign-in" callbackURL={safeRedirect(search.redirect)} />
    </AuthCard>
  );
}

export function SignUpScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [checkInbox, setCheckInbox] = useState<string | null>(null);
  const form = useForm<SignUpForm>({ resolver: zodResolver(signUpForm), defaultValues: { name: "", email: "", username: "", password: "", confirm: "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ name, email, username, password }) => {
    setFailure(null);
    const result = await viaAuth(() => authClient.signUp.email({ name, email, password, callbackURL: "/verified", ...(username ? { username } : {}) }));
    if (result.error) return setFailure(result.error);
    // With verification required there is no session yet: the person must open the mailed link first.
    if (!result.data.token) return setCheckInbox(email);
    await queryClient.invalidateQueries();
    await navigate({ to: "/" });
  });
  if (checkInbox) {
    return (
      <AuthCard title="Check your inbox">
        <Alert tone="success">
          We sent a link to <strong>{checkInbox}</strong>. Open it to verify your address, then sign in.
        </Alert>
        <Link to="/sign-in">Go to sign in</Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Create your account"
      footer={
        <p>
          Already have an account? <Link to="/sign-in">Sign in</Link>
        </p>
      }
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label="Name" error={errors.name?.message}>
          {(ids) => <input {...ids} {...form.register("name")} autoComplete="name" />}
        </Field>
        <Field label="E-mail" error={errors.email?.message}>
          {(ids) => <input {...ids} {...form.register("email")} type="email" autoComplete="email" />}
        </Field>
        <Field label="Username (optional)" hint="3–30 letters, digits, _ or . — lets you sign in without your e-mail." error={errors.username?.message}>
          {(ids) => <input {...ids} {...form.register("username")} autoComplete="username" />}
        </Field>
        <Field label="Password" hint="At least 8 characters." error={errors.password?.message}>
          {(ids) => <input {...ids} {...form.register("password")} type="password" autoComplete="new-password" />}
        </Field>
        <Field label="Repeat the password" error={errors.confirm?.message}>
          {(ids) => <input {...ids} {...form.register("confirm")} type="password" autoComplete="new-password" />}
        </Field>
        {failure && <Alert tone="error">{describeError(failure)}</Alert>}
        <Button type="submit" busy={isSubmitting} className="wide">
          Create account
        </Button>
      </form>
      <SocialButtons mode="sign-up" />
    </AuthCard>
  );
}

export function ForgotPasswordScreen() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const form = useForm({ resolver: zodResolver(forgotPasswordForm), defaultValues: { email: "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ email }) => {
    setFailure(null);
    const result = await viaAuth(() => authClient.requestPasswordReset({ email, redirectTo: "/reset-password" }));
    if (result.error) return setFailure(result.error);
    setSentTo(email);
  });
  return (
    <AuthCard title="Reset your password" footer={<Link to="/sign-in">Back to sign in</Link>}>
      {sentTo ? (
        <Alert tone="success">If an account uses {sentTo}, a link to choose a new password is on its way. It works for an hour.</Alert>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Field label="E-mail" error={errors.email?.message}>
            {(ids) => <input {...ids} {...form.register("email")} type="email" autoComplete="email" />}
          </Field>
          {failure && <Alert tone="error">{describeError(failure)}</Alert>}
          <Button type="submit" busy={isSubmitting} className="wide">
            Send the link
          </Button>
        </form>
      )}
    </AuthCard>
  );
}

export function ResetPasswordScreen() {
  const search = useSearch({ from: "/reset-password" });
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const form = useForm({ resolver: zodResolver(resetPasswordForm), defaultValues: { password: "", confirm: "" } });
  const { errors, isSubmitting } = form.formState;
  if (search.error || !search.token) {
    return (
      <AuthCard title="Reset your password" footer={<Link to="/forgot-password">Request a new link</Link>}>
        <Alert tone="error">{describeFlowError(search.error ?? "INVALID_TOKEN")}</Alert>
      </AuthCard>
    );
  }
  const token = search.token;
  const submit = form.handleSubmit(async ({ password }) => {
    setFailure(null);
    const result = await viaAuth(() => authClient.resetPassword({ newPassword: password, token }));
    if (result.error) return setFailure(result.error);
    setDone(true);
  });
  return (
    <AuthCard title="Choose a new password" footer={<Link to="/sign-in">Back to sign in</Link>}>
      {done ? (
        <Alert tone="success">Your password is changed and every session was signed out. Sign in with the new one.</Alert>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Field label="New password" hint="At least 8 characters." error={errors.password?.message}>
            {(ids) => <input {...ids} {...form.register("password")} type="password" autoComplete="new-password" />}
          </Field>
          <Field label="Repeat the password" error={errors.confirm?.message}>
            {(ids) => <input {...ids} {...form.register("confirm")} type="password" autoComplete="new-password" />}
          </Field>
          {failure && <Alert tone="error">{describeError(failure)}</Alert>}
          <Button type="submit" busy={isSubmitting} className="wide">
            Save the new password
          </Button>
        </form>
      )}
    </AuthCard>
  );
}

/** Where the verification link lands: better-auth adds `error` when the link did not work. */
export function VerifiedScreen() {
  const search = useSearch({ from: "/verified" });
  const session = authClient.useSession();
  return (
    <AuthCard title={search.error ? "That link did not work" : "Your address is verified"}>
      {search.error ? (
        <Alert tone="error">{describeFlowError(search.error)}</Alert>
      ) : (
        <Alert tone="success">Thank you — your e-mail address is confirmed.</Alert>
      )}
      {session.data ? <Link to="/account">Go to your account</Link> : <Link to="/sign-in">Sign in</Link>}
    </AuthCard>
  );
}

/** The friendly twin of the API's error page, for flows that come back with `?error=`. */
export function AuthErrorScreen() {
  const search = useSearch({ from: "/auth-error" });
  return (
    <AuthCard title="We could not sign you in" footer={<Link to="/sign-in">Back to sign in</Link>}>
      <Alert tone="error">{describeFlowError(search.error)}</Alert>
      {search.error_description && <p className="muted">The provider said: {search.error_description}</p>}
      {search.error && (
        <p className="muted">
          Error code: <code>{search.error}</code>
        </p>
      )}
    </AuthCard>
  );
}
