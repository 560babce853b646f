import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, Navigate, Outlet, useNavigate } from "@tanstack/react-router";
import { useState, type ReactNode } from "react";
import { defineMessage, defineMessages, FormattedMessage, type MessageTag, useIntl } from "react-intl";
import { authClient, orThrow, viaAuth, type Session } from "./api/auth-client";
import { describeError, type ApiError } from "./api/client";
import { LanguageSwitcher } from "./i18n/switcher";
import { Alert, Button, Loading } from "./ui/components";

const messages = defineMessages({
  loadingSession: { id: "shell.loading.session", defaultMessage: "Loading your session…" },
  adminsOnly: { id: "shell.adminsOnly", defaultMessage: "This page is for platform admins. Ask an admin to give you the admin role." },
  organizationLabel: defineMessage<{ name: string }>({ id: "shell.organization.label", defaultMessage: "Organization: {name}" }),
  noOrganization: { id: "shell.organization.none", defaultMessage: "none chosen" },
  organizations: { id: "shell.organization.menu", defaultMessage: "Organizations" },
  loading: { id: "shell.organization.loading", defaultMessage: "Loading…" },
  current: { id: "shell.organization.current", defaultMessage: "(current)" },
  newOrganization: { id: "shell.organization.new", defaultMessage: "New organization…" },
  impersonating: defineMessage<{ name: string; email: string; strong: MessageTag }>({
    id: "shell.impersonation.notice",
    defaultMessage: "You are signed in as <strong>{name}</strong> ({email}) on behalf of an admin.",
  }),
  stopImpersonating: { id: "shell.impersonation.stop", defaultMessage: "Stop impersonating" },
  verificationSent: defineMessage<{ email: string }>({ id: "shell.verification.sent", defaultMessage: "We sent a verification link to {email}." }),
  unverified: { id: "shell.verification.notice", defaultMessage: "Your e-mail address is not verified yet." },
  sendVerification: { id: "shell.verification.send", defaultMessage: "Send verification link" },
  accountMenu: defineMessage<{ name: string }>({ id: "shell.userMenu.label", defaultMessage: "Account menu for {name}" }),
  account: { id: "shell.userMenu.account", defaultMessage: "Account" },
  purchases: { id: "shell.userMenu.purchases", defaultMessage: "Purchases" },
  signOut: { id: "shell.userMenu.signOut", defaultMessage: "Sign out" },
  skipToContent: { id: "shell.skipToContent", defaultMessage: "Skip to content" },
  mainNavigation: { id: "shell.nav.label", defaultMessage: "Main" },
  admin: { id: "shell.nav.admin", defaultMessage: "Admin" },
  mailbox: { id: "shell.nav.mailbox", defaultMessage: "Mailbox" },
  signIn: { id: "shell.nav.signIn", defaultMessage: "Sign in" },
});

/** Whether this build carries the development mailbox screen (not in production images). */
export const HAS_DEV_MAILBOX = import.meta.env.VITE_DEV_MAILBOX !== "false";

export const organizationsQuery = {
  queryKey: ["organizations"],
  queryFn: () => orThrow(viaAuth(() => authClient.organization.list())),
};

/** Children only for a signed-in user; others are sent to sign in and brought back afterwards. */
export function RequireSession({ children, admin = false }: { children: (session: Session) => ReactNode; admin?: boolean }) {
  const session = authClient.useSession();
  // Where to come back to, taken once: the location changes as soon as the redirect starts.
  const [comeBackTo] = useState(() => `${window.location.pathname}${window.location.search}`);
  if (session.isPending) return <Loading message={messages.loadingSession} />;
  if (!session.data) return <Navigate to="/sign-in" search={{ redirect: comeBackTo }} replace />;
  if (admin && !session.data.user.role?.split(",").includes("admin")) {
    return (
      <Alert tone="error">
        <FormattedMessage {...messages.adminsOnly} />
      </Alert>
    );
  }
  return <>{children(session.data)}</>;
}

function OrganizationSwitcher({ session }: { session: Session }) {
  const organizations = useQuery(organizationsQuery);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { formatMessage } = useIntl();
  const active = organizations.data?.find((organization) => organization.id === session.session.activeOrganizationId);
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <Button variant="ghost" aria-label={formatMessage(messages.organizationLabel, { name: active?.name ?? formatMessage(messages.noOrganization) })}>
          {active?.name ?? formatMessage(messages.organizations)} ▾
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="start">
          {organizations.isPending && <DropdownMenu.Label className="menu-label">{formatMessage(messages.loading)}</DropdownMenu.Label>}
          {organizations.data?.map((organization) => (
            <DropdownMenu.Item
              key={organization.id}
              className="menu-item"
              onSelect={() => {
                void viaAuth(() => authClient.organization.setActive({ organizationId: organization.id })).then(async () => {
                  await queryClient.invalidateQueries();
                  await navigate({ to: "/organizations/$slug", params: { slug: organization.slug } });
                });
              }}
            >
              {organization.name}
              {organization.id === active?.id && <span className="sr-only"> {formatMessage(messages.current)}</span>}
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Item className="menu-item" onSelect={() => void navigate({ to: "/organizations/new" })}>
            {formatMessage(messages.newOrganization)}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** Shown while an admin acts as someone else, with the way back. */
function ImpersonationBanner({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  if (!session.session.impersonatedBy) return null;
  const stop = async () => {
    setBusy(true);
    const result = await viaAuth(() => authClient.admin.stopImpersonating());
    setBusy(false);
    if (result.error) return setFailure(result.error);
    await queryClient.invalidateQueries();
    await navigate({ to: "/admin/users" });
  };
  return (
    <div className="banner banner-warning" role="status">
      <FormattedMessage {...messages.impersonating} values={{ name: session.user.name, email: session.user.email, strong: (chunks) => <strong>{chunks}</strong> }} />
      <Button variant="secondary" busy={busy} onClick={() => void stop()}>
        <FormattedMessage {...messages.stopImpersonating} />
      </Button>
      {failure && <span className="field-error">{describeError(failure)}</span>}
    </div>
  );
}

function UnverifiedBanner({ session }: { session: Session }) {
  const [state, setState] = useState<"idle" | "sending" | "sent">("idle");
  const [failure, setFailure] = useState<ApiError | null>(null);
  if (session.user.emailVerified) return null;
  const send = async () => {
    setState("sending");
    const result = await viaAuth(() => authClient.sendVerificationEmail({ email: session.user.email, callbackURL: "/verified" }));
    if (result.error) {
      setFailure(result.error);
      return setState("idle");
    }
    setState("sent");
  };
  return (
    <div className="banner" role="status">
      {state === "sent" ? (
        <FormattedMessage {...messages.verificationSent} values={{ email: session.user.email }} />
      ) : (
        <>
          <FormattedMessage {...messages.unverified} />
          <Button variant="secondary" busy={state === "sending"} onClick={() => void send()}>
            <FormattedMessage {...messages.sendVerification} />
          </Button>
        </>
      )}
      {failure && <span className="field-error">{describeError(failure)}</span>}
    </div>
  );
}

function UserMenu({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { formatMessage } = useIntl();
  const signOut = async () => {
    await viaAuth(() => authClient.signOut());
    queryClient.clear();
    await navigate({ to: "/sign-in" });
  };
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <Button variant="ghost" aria-label={formatMessage(messages.accountMenu, { name: session.user.name })}>
          {session.user.name} ▾
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end">
          <DropdownMenu.Item className="menu-item" onSelect={() => void navigate({ to: "/account" })}>
            {formatMessage(messages.account)}
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={() => void navigate({ to: "/purchases" })}>
            {formatMessage(messages.purchases)}
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={() => void signOut()}>
            {formatMessage(messages.signOut)}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

export function Shell() {
  const session = authClient.useSession();
  const { formatMessage } = useIntl();
  const isAdmin = session.data?.user.role?.split(",").includes("admin") ?? false;
  return (
    <>
      <a className="skip-link" href="#content">
        {formatMessage(messages.skipToContent)}
      </a>
      <header className="app-header">
        <Link to="/" className="brand">
          Tollgate
        </Link>
        {session.data && <OrganizationSwitcher session={session.data} />}
        <nav aria-label={formatMessage(messages.mainNavigation)} className="app-nav">
          {isAdmin && <Link to="/admin/users">{formatMessage(messages.admin)}</Link>}
          {isAdmin && HAS_DEV_MAILBOX && <Link to="/dev/mailbox">{formatMessage(messages.mailbox)}</Link>}
          <LanguageSwitcher />
          {session.data ? <UserMenu session={session.data} /> : !session.isPending && <Link to="/sign-in">{formatMessage(messages.signIn)}</Link>}
        </nav>
      </header>
      {session.data && <ImpersonationBanner session={session.data} />}
      {session.data && <UnverifiedBanner session={session.data} />}
      <main className="app-main" id="content">
        <Outlet />
      </main>
    </>
  );
}
