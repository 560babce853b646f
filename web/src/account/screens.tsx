import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { authClient, orThrow, viaAuth, type ApiFailure, type Session } from "../api/auth-client";
import { describeError, type ApiError, type ApiResult } from "../api/client";
import { useSocialProviders } from "../auth/social-buttons";
import { changeEmailForm, changePasswordForm, profileForm, type ProfileForm } from "../forms/schemas";
import { organizationsQuery, RequireSession } from "../shell";
import { Alert, Button, Card, ConfirmDialog, EmptyState, Field, Loading, Page } from "../ui/components";

/** The outcome of the last submit of a form: nothing yet, a failure in words, or a confirmation. */
type Outcome = { tone: "error" | "success"; text: string } | null;
const outcomeOf = (result: ApiResult<unknown>, success: string): Outcome => (result.error ? { tone: "error", text: describeError(result.error) } : { tone: "success", text: success });
const OutcomeAlert = ({ outcome }: { outcome: Outcome }) => (outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null);

function ProfileCard({ session }: { session: Session }) {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const queryClient = useQueryClient();
  const { user } = session;
  const form = useForm<ProfileForm>({ resolver: zodResolver(profileForm), defaultValues: { name: user.name, image: user.image ?? "", username: user.displayUsername ?? user.username ?? "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ name, image, username }) => {
    const result = await viaAuth(() => authClient.updateUser({ name, image: image || null, ...(username ? { username } : {}) }));
    setOutcome(outcomeOf(result, "Your profile is saved."));
    await queryClient.invalidateQueries();
  });
  return (
    <Card title="Profile">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label="Name" error={errors.name?.message}>
          {(ids) => <input {...ids} {...form.register("name")} autoComplete="name" />}
        </Field>
        <Field label="Picture address" hint="A link to an image, or nothing." error={errors.image?.message}>
          {(ids) => <input {...ids} {...form.register("image")} type="url" />}
        </Field>
        <Field label="Username" hint="Letters, digits, _ and . (3–30)." error={errors.username?.message}>
          {(ids) => <input {...ids} {...form.register("username")} autoComplete="username" />}
        </Field>
        <OutcomeAlert outcome={outcome} />
        <Button type="submit" busy={isSubmitting}>
          Save profile
        </Button>
      </form>
    </Card>
  );
}

function EmailCard({ session }: { session: Session }) {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const form = useForm({ resolver: zodResolver(changeEmailForm), defaultValues: { newEmail: "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ newEmail }) => {
    const result = await viaAuth(() => authClient.changeEmail({ newEmail, callbackURL: "/verified" }));
    setOutcome(outcomeOf(result, `Check ${session.user.emailVerified ? session.user.email : newEmail} for a link to confirm the change.`));
  });
  return (
    <Card title="E-mail address" description={`Now: ${session.user.email}${session.user.emailVerified ? " (verified)" : " (not verified)"}`}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label="New e-mail address" error={errors.newEmail?.message}>
          {(ids) => <input {...ids} {...form.register("newEmail")} type="email" autoComplete="email" />}
        </Field>
        <OutcomeAlert outcome={outcome} />
        <Button type="submit" busy={isSubmitting}>
          Change e-mail
        </Button>
      </form>
    </Card>
  );
}

function useAccounts() {
  return useQuery({ queryKey: ["accounts"], queryFn: () => orThrow(viaAuth(() => authClient.listAccounts())) });
}

function PasswordCard({ session }: { session: Session }) {
  const accounts = useAccounts();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const form = useForm({ resolver: zodResolver(changePasswordForm), defaultValues: { currentPassword: "", password: "", confirm: "", revokeOtherSessions: true } });
  const { errors, isSubmitting } = form.formState;
  const hasPassword = accounts.data?.some((account) => account.providerId === "credential");
  const submit = form.handleSubmit(async ({ currentPassword, password, revokeOtherSessions }) => {
    const result = await viaAuth(() => authClient.changePassword({ currentPassword, newPassword: password, revokeOtherSessions }));
    setOutcome(outcomeOf(result, "Your password is changed."));
    if (!result.error) form.reset();
  });
  // Setting a first password is a server-only call in better-auth: people without one get a link instead.
  const sendSetLink = async () => {
    const result = await viaAuth(() => authClient.requestPasswordReset({ email: session.user.email, redirectTo: "/reset-password" }));
    setOutcome(outcomeOf(result, `We sent a link to ${session.user.email} to set your password.`));
  };
  if (accounts.isPending) return <Loading what="your sign-in methods" />;
  if (!hasPassword) {
    return (
      <Card title="Password" description="You sign in with a provider only. Set a password to sign in with your e-mail address too.">
        <OutcomeAlert outcome={outcome} />
        <Button variant="secondary" onClick={() => void sendSetLink()}>
          Set a password
        </Button>
      </Card>
    );
  }
  return (
    <Card title="Password">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label="Current password" error={errors.currentPassword?.message}>
          {(ids) => <input {...ids} {...form.register("currentPassword")} type="password" autoComplete="current-password" />}
        </Field>
        <Field label="New password" hint="At least 8 characters." error={errors.password?.message}>
          {(ids) => <input {...ids} {...form.register("password")} type="password" autoComplete="new-password" />}
        </Field>
        <Field label="Repeat the new password" error={errors.confirm?.message}>
          {(ids) => <input {...ids} {...form.register("confirm")} type="password" autoComplete="new-password" />}
        </Field>
        <label className="checkbox">
          <input type="checkbox" {...form.register("revokeOtherSessions")} /> Sign out my other devices
        </label>
        <OutcomeAlert outcome={outcome} />
        <Button type="submit" busy={isSubmitting}>
          Change password
        </Button>
      </form>
    </Card>
  );
}

/** A user agent as a person would name the device: "Firefox on Linux". */
export function deviceName(userAgent: string | null | undefined): string {
  if (!userAgent) return "Unknown device";
  const browser = /Edg\//.test(userAgent) ? "Edge" : /Firefox\//.test(userAgent) ? "Firefox" : /Chrome\//.test(userAgent) ? "Chrome" : /Safari\//.test(userAgent) ? "Safari" : "A browser";
  const system = /Android/.test(userAgent) ? "Android" : /iPhone|iPad/.test(userAgent) ? "iOS" : /Windows/.test(userAgent) ? "Windows" : /Mac OS X/.test(userAgent) ? "macOS" : /Linux/.test(userAgent) ? "Linux" : null;
  return system ? `${browser} on ${system}` : browser;
}

function SessionsCard({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const sessions = useQuery({ queryKey: ["sessions"], queryFn: () => orThrow(viaAuth(() => authClient.listSessions())) });
  const [outcome, setOutcome] = useState<Outcome>(null);
  const act = async (call: () => Promise<ApiResult<unknown>>, success: string) => {
    const result = await call();
    setOutcome(outcomeOf(result, success));
    await queryClient.invalidateQueries({ queryKey: ["sessions"] });
    return !result.error;
  };
  return (
    <Card title="Where you are signed in">
      {sessions.isPending && <Loading what="your sessions" />}
      {sessions.error && <Alert tone="error">{sessions.error.message}</Alert>}
      {sessions.data && (
        <ul className="list">
          {sessions.data.map((entry) => {
            const current = entry.id === session.session.id;
            return (
              <li key={entry.id} className="list-row">
                <div>
                  <strong>{deviceName(entry.userAgent)}</strong>
                  {current && <span className="badge">This device</span>}
                  <p className="muted">
                    {entry.ipAddress ?? "Unknown address"} · last active {new Date(entry.updatedAt).toLocaleString()}
                  </p>
                </div>
                {!current && (
                  <Button variant="secondary" onClick={() => void act(() => viaAuth(() => authClient.revokeSession({ token: entry.token })), "That session is signed out.")}>
                    Sign out
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <OutcomeAlert outcome={outcome} />
      <div className="actions">
        <Button variant="secondary" onClick={() => void act(() => viaAuth(() => authClient.revokeOtherSessions()), "Your other devices are signed out.")}>
          Sign out other devices
        </Button>
        <Button
          variant="danger"
          onClick={() =>
            void act(() => viaAuth(() => authClient.revokeSessions()), "Every session is signed out.").then(async (done) => {
              if (!done) return;
              queryClient.clear();
              await navigate({ to: "/sign-in" });
            })
          }
        >
          Sign out everywhere
        </Button>
      </div>
    </Card>
  );
}

function LinkedAccountsCard() {
  const accounts = useAccounts();
  const providers = useSocialProviders();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<ApiError | null>(null);
  const unlink = useMutation<unknown, ApiFailure, string>({
    mutationFn: (accountId) => orThrow(viaAuth(() => authClient.unlinkAccount({ accountId }))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["accounts"] }),
  });
  const link = async (provider: string) => {
    setFailure(null);
    const result = await viaAuth(() => authClient.linkSocial({ provider, callbackURL: "/account", errorCallbackURL: "/auth-error" }));
    if (result.error) setFailure(result.error);
  };
  if (accounts.isPending) return <Loading what="linked accounts" />;
  const linked = accounts.data ?? [];
  const nameOf = (id: string) => (id === "credential" ? "E-mail and password" : (providers.data?.find((provider) => provider.id === id)?.name ?? id));
  const unlinkable = linked.length > 1;
  const available = (providers.data ?? []).filter((provider) => !linked.some((account) => account.providerId === provider.id));
  return (
    <Card title="Ways to sign in" description="Link a provider to sign in with it too.">
      <ul className="list">
        {linked.map((account) => (
          <li key={account.id} className="list-row">
            <div>
              <strong>{nameOf(account.providerId)}</strong>
              {account.scopes.length > 0 && <p className="muted">Access: {account.scopes.join(", ")}</p>}
            </div>
            <Button
              variant="secondary"
              disabled={!unlinkable}
              title={unlinkable ? undefined : "This is your only way to sign in, so it cannot be unlinked."}
              busy={unlink.isPending && unlink.variables === account.id}
              onClick={() => unlink.mutate(account.id)}
            >
              Unlink
            </Button>
          </li>
        ))}
      </ul>
      {!unlinkable && <p className="hint">Your only way to sign in cannot be unlinked; link another first.</p>}
      {unlink.error && <Alert tone="error">{unlink.error.message}</Alert>}
      {available.length > 0 && (
        <div className="actions">
          {available.map((provider) => (
            <Button key={provider.id} variant="secondary" onClick={() => void link(provider.id)}>
              Link {provider.name}
            </Button>
          ))}
        </div>
      )}
      {failure && <Alert tone="error">{describeError(failure)}</Alert>}
    </Card>
  );
}

function DeleteAccountCard() {
  const accounts = useAccounts();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState("");
  const [outcome, setOutcome] = useState<Outcome>(null);
  const hasPassword = accounts.data?.some((account) => account.providerId === "credential") ?? false;
  const remove = async () => {
    const result = await viaAuth(() => authClient.deleteUser({ callbackURL: "/", ...(hasPassword ? { password } : {}) }));
    if (result.error) {
      setOutcome(outcomeOf(result, ""));
      return false;
    }
    if (result.data.message === "Verification email sent") {
      setOutcome({ tone: "success", text: "We sent you a link: your account is deleted when you open it." });
      return true;
    }
    queryClient.clear();
    await navigate({ to: "/sign-in" });
    return true;
  };
  return (
    <Card title="Delete account" description="Your account, its sessions and its sign-in methods go for good.">
      <OutcomeAlert outcome={outcome} />
      <ConfirmDialog
        trigger={<Button variant="danger">Delete my account…</Button>}
        title="Delete your account?"
        description="This cannot be undone. Organizations you alone own are deleted with it."
        confirmLabel="Delete my account"
        onConfirm={remove}
      >
        {hasPassword && (
          <Field label="Your password">{(ids) => <input {...ids} type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />}</Field>
        )}
        {outcome?.tone === "error" && <Alert tone="error">{outcome.text}</Alert>}
      </ConfirmDialog>
    </Card>
  );
}

export function AccountScreen() {
  return (
    <RequireSession>
      {(session) => (
        <Page title="Your account" description={session.user.email}>
          <div className="stack">
            <ProfileCard session={session} />
            <EmailCard session={session} />
            <PasswordCard session={session} />
            <SessionsCard session={session} />
            <LinkedAccountsCard />
            <DeleteAccountCard />
          </div>
        </Page>
      )}
    </RequireSession>
  );
}

export function HomeScreen() {
  const session = authClient.useSession();
  if (session.isPending) return <Loading what="Tollgate" />;
  if (!session.data) {
    return (
      <Page title="Tollgate" description="Accounts, organizations and subscription billing you run yourself.">
        <EmptyState title="Sign in to get started.">
          <p>
            <Link to="/sign-in">Sign in</Link> or <Link to="/sign-up">create an account</Link>.
          </p>
        </EmptyState>
      </Page>
    );
  }
  return <OrganizationsHome />;
}

function OrganizationsHome() {
  const organizations = useQuery(organizationsQuery);
  return (
    <Page
      title="Your organizations"
      actions={
        <Link className="button button-primary" to="/organizations/new">
          New organization
        </Link>
      }
    >
      {organizations.isPending && <Loading what="your organizations" />}
      {organizations.error && <Alert tone="error">{organizations.error.message}</Alert>}
      {organizations.data?.length === 0 && (
        <EmptyState title="You are not in any organization yet.">
          <p>Create one to invite people and work together, or ask someone to invite you.</p>
        </EmptyState>
      )}
      <ul className="list">
        {organizations.data?.map((organization) => (
          <li key={organization.id} className="list-row">
            <Link to="/organizations/$slug" params={{ slug: organization.slug }}>
              {organization.name}
            </Link>
            <span className="muted">{organization.slug}</span>
          </li>
        ))}
      </ul>
    </Page>
  );
}
