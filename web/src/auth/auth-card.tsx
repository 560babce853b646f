import type { ReactNode } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { PASSWORD_MIN } from "../forms/account-limits";
import { Field } from "../ui/components";

/** Labels every sign-in screen uses alike. */
export const authMessages = defineMessages({
  name: { id: "auth.field.name", defaultMessage: "Name" },
  email: { id: "auth.field.email", defaultMessage: "E-mail" },
  password: { id: "auth.field.password", defaultMessage: "Password" },
  passwordHint: defineMessage<{ count: number }>({ id: "auth.field.passwordHint", defaultMessage: "At least {count, plural, one {# character} other {# characters}}." }),
  repeatPassword: { id: "auth.field.repeatPassword", defaultMessage: "Repeat the password" },
  backToSignIn: { id: "auth.backToSignIn", defaultMessage: "Back to sign in" },
  oneTimeCode: { id: "auth.field.oneTimeCode", defaultMessage: "Code from the e-mail" },
  resendCode: { id: "auth.oneTimeCode.resend", defaultMessage: "Send a new code" },
  newPassword: { id: "auth.resetPassword.newPassword", defaultMessage: "New password" },
  savePassword: { id: "auth.resetPassword.submit", defaultMessage: "Save the new password" },
  passwordChanged: { id: "auth.resetPassword.done", defaultMessage: "Your password is changed and every session was signed out. Sign in with the new one." },
});

/** The narrow card the sign-in screens share. */
export function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
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

/** A new password and its repeat, as signing up and resetting a password ask for them. */
export function NewPasswordFields({ label, field, errors }: { label: string; field: (name: "password" | "confirm") => UseFormRegisterReturn; errors: { password?: string; confirm?: string } }) {
  const { formatMessage } = useIntl();
  return (
    <>
      <Field label={label} hint={formatMessage(authMessages.passwordHint, { count: PASSWORD_MIN })} error={errors.password}>
        {(ids) => <input {...ids} {...field("password")} type="password" autoComplete="new-password" />}
      </Field>
      <Field label={formatMessage(authMessages.repeatPassword)} error={errors.confirm}>
        {(ids) => <input {...ids} {...field("confirm")} type="password" autoComplete="new-password" />}
      </Field>
    </>
  );
}
