import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { authClient, viaAuth, type Session } from "../api/auth-client";
import { authMessages } from "../auth/auth-card";
import { PASSWORD_MIN } from "../forms/account-limits";
import { useLinkedAccounts } from "./queries";
import { changeEmailForm, changePasswordForm, profileForm, type ProfileForm } from "./form";
import { Button, Card, Field } from "../ui/components";
import { QueryState } from "../ui/query-state";
import { outcomeOf, OutcomeAlert, type Outcome } from "../ui/outcome";

const messages = defineMessages({
  profile: { id: "account.profile.title", defaultMessage: "Profile" },
  profileSaved: { id: "account.profile.saved", defaultMessage: "Your profile is saved." },
  name: { id: "account.profile.name", defaultMessage: "Name" },
  picture: { id: "account.profile.picture", defaultMessage: "Picture address" },
  pictureHint: { id: "account.profile.pictureHint", defaultMessage: "A link to an image, or nothing." },
  username: { id: "account.profile.username", defaultMessage: "Username" },
  usernameHint: { id: "account.profile.usernameHint", defaultMessage: "Letters, digits, _ and . (3–30)." },
  saveProfile: { id: "account.profile.submit", defaultMessage: "Save profile" },
  emailChangeSent: defineMessage<{ email: string }>({ id: "account.email.changeSent", defaultMessage: "Check {email} for a link to confirm the change." }),
  emailTitle: { id: "account.email.title", defaultMessage: "E-mail address" },
  emailNow: defineMessage<{ email: string; verified: string }>({
    id: "account.email.current",
    defaultMessage: "Now: {email} {verified, select, yes {(verified)} other {(not verified)}}",
  }),
  newEmail: { id: "account.email.new", defaultMessage: "New e-mail address" },
  changeEmail: { id: "account.email.submit", defaultMessage: "Change e-mail" },
  passwordChanged: { id: "account.password.changed", defaultMessage: "Your password is changed." },
  setLinkSent: defineMessage<{ email: string }>({ id: "account.password.setLinkSent", defaultMessage: "We sent a link to {email} to set your password." }),
  loadingMethods: { id: "account.password.loading", defaultMessage: "Loading your sign-in methods…" },
  passwordTitle: { id: "account.password.title", defaultMessage: "Password" },
  noPassword: { id: "account.password.none", defaultMessage: "You sign in with a provider only. Set a password to sign in with your e-mail address too." },
  setPassword: { id: "account.password.set", defaultMessage: "Set a password" },
  currentPassword: { id: "account.password.current", defaultMessage: "Current password" },
  newPassword: { id: "account.password.new", defaultMessage: "New password" },
  repeatPassword: { id: "account.password.repeat", defaultMessage: "Repeat the new password" },
  signOutOthers: { id: "account.password.signOutOthers", defaultMessage: "Sign out my other devices" },
  changePassword: { id: "account.password.submit", defaultMessage: "Change password" },
});

export function ProfileCard({ session }: { session: Session }) {
  const { formatMessage } = useIntl();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const queryClient = useQueryClient();
  const { user } = session;
  const form = useForm<ProfileForm>({ resolver: zodResolver(profileForm), defaultValues: { name: user.name, image: user.image ?? "", username: user.displayUsername ?? user.username ?? "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ name, image, username }) => {
    setOutcome(await outcomeOf(viaAuth(() => authClient.updateUser({ name, image: image || null, ...(username ? { username } : {}) })), formatMessage(messages.profileSaved)));
    await queryClient.invalidateQueries();
  });
  return (
    <Card title={formatMessage(messages.profile)}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label={formatMessage(messages.name)} error={errors.name?.message}>
          {(ids) => <input {...ids} {...form.register("name")} autoComplete="name" />}
        </Field>
        <Field label={formatMessage(messages.picture)} hint={formatMessage(messages.pictureHint)} error={errors.image?.message}>
          {(ids) => <input {...ids} {...form.register("image")} type="url" />}
        </Field>
        <Field label={formatMessage(messages.username)} hint={formatMessage(messages.usernameHint)} error={errors.username?.message}>
          {(ids) => <input {...ids} {...form.register("username")} autoComplete="username" />}
        </Field>
        <OutcomeAlert outcome={outcome} />
        <Button type="submit" busy={isSubmitting}>
          {formatMessage(messages.saveProfile)}
        </Button>
      </form>
    </Card>
  );
}

export function EmailCard({ session }: { session: Session }) {
  const { formatMessage } = useIntl();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const form = useForm({ resolver: zodResolver(changeEmailForm), defaultValues: { newEmail: "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ newEmail }) => {
    setOutcome(await outcomeOf(viaAuth(() => authClient.changeEmail({ newEmail, callbackURL: "/verified" })), formatMessage(messages.emailChangeSent, { email: session.user.emailVerified ? session.user.email : newEmail })));
  });
  return (
    <Card title={formatMessage(messages.emailTitle)} description={formatMessage(messages.emailNow, { email: session.user.email, verified: session.user.emailVerified ? "yes" : "no" })}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label={formatMessage(messages.newEmail)} error={errors.newEmail?.message}>
          {(ids) => <input {...ids} {...form.register("newEmail")} type="email" autoComplete="email" />}
        </Field>
        <OutcomeAlert outcome={outcome} />
        <Button type="submit" busy={isSubmitting}>
          {formatMessage(messages.changeEmail)}
        </Button>
      </form>
    </Card>
  );
}

export function PasswordCard({ session }: { session: Session }) {
  const { formatMessage } = useIntl();
  const accounts = useLinkedAccounts();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const form = useForm({ resolver: zodResolver(changePasswordForm), defaultValues: { currentPassword: "", password: "", confirm: "", revokeOtherSessions: true } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ currentPassword, password, revokeOtherSessions }) => {
    const result = await outcomeOf(viaAuth(() => authClient.changePassword({ currentPassword, newPassword: password, revokeOtherSessions })), formatMessage(messages.passwordChanged));
    setOutcome(result);
    if (result?.tone === "success") form.reset();
  });
  // Setting a first password is a server-only call in better-auth: people without one get a link instead.
  const sendSetLink = async () => {
    setOutcome(await outcomeOf(viaAuth(() => authClient.requestPasswordReset({ email: session.user.email, redirectTo: "/reset-password" })), formatMessage(messages.setLinkSent, { email: session.user.email })));
  };
  return (
    <QueryState query={accounts} loading={messages.loadingMethods}>
      {(linked) => {
        if (!linked.some((account) => account.providerId === "credential")) {
          return (
            <Card title={formatMessage(messages.passwordTitle)} description={formatMessage(messages.noPassword)}>
              <OutcomeAlert outcome={outcome} />
              <Button variant="secondary" onClick={() => void sendSetLink()}>
                {formatMessage(messages.setPassword)}
              </Button>
            </Card>
          );
        }
        return (
          <Card title={formatMessage(messages.passwordTitle)}>
            <form onSubmit={(event) => void submit(event)} noValidate>
              <Field label={formatMessage(messages.currentPassword)} error={errors.currentPassword?.message}>
                {(ids) => <input {...ids} {...form.register("currentPassword")} type="password" autoComplete="current-password" />}
              </Field>
              <Field label={formatMessage(messages.newPassword)} hint={formatMessage(authMessages.passwordHint, { count: PASSWORD_MIN })} error={errors.password?.message}>
                {(ids) => <input {...ids} {...form.register("password")} type="password" autoComplete="new-password" />}
              </Field>
              <Field label={formatMessage(messages.repeatPassword)} error={errors.confirm?.message}>
                {(ids) => <input {...ids} {...form.register("confirm")} type="password" autoComplete="new-password" />}
              </Field>
              <label className="checkbox">
                <input type="checkbox" {...form.register("revokeOtherSessions")} /> {formatMessage(messages.signOutOthers)}
              </label>
              <OutcomeAlert outcome={outcome} />
              <Button type="submit" busy={isSubmitting}>
                {formatMessage(messages.changePassword)}
              </Button>
            </form>
          </Card>
        );
      }}
    </QueryState>
  );
}
