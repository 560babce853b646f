import { useQueryClient } from "@tanstack/react-query";
import { Link, Navigate, Outlet, useMatches, useNavigate } from "@tanstack/react-router";
import { lazy, Suspense, useState, type ReactNode } from "react";
import { defineMessage, defineMessages, FormattedMessage, type MessageTag, useIntl } from "react-intl";
import { authClient, viaAuth, type Session } from "./api/auth-client";
import { describeError, type ApiError } from "./api/client";
import { LanguageSwitcher } from "./i18n/switcher";
import { Alert, Button, Loading } from "./ui/components";

const messages = defineMessages({
  loadingSession: { id: "shell.loading.session", defaultMessage: "Loading your session…" },
  adminsOnly: { id: "shell.adminsOnly", defaultMessage: "This page is for platform admins. Ask an admin to give you the admin role." },
  impersonating: defineMessage<{ name: string; email: string; strong: MessageTag }>({
    id: "shell.impersonation.notice",
    defaultMessage: "You are signed in as <strong>{name}</strong> ({email}) on behalf of an admin.",
  }),
  stopImpersonating: { id: "shell.impersonation.stop", defaultMessage: "Stop impersonating" },
  verificationSent: defineMessage<{ email: string }>({ id: "shell.verification.sent", defaultMessage: "We sent a verification link to {email}." }),
  unverified: { id: "shell.verification.notice", defaultMessage: "Your e-mail address is not verified yet." },
  sendVerification: { id: "shell.verification.send", defaultMessage: "Send verification link" },
  skipToContent: { id: "shell.skipToContent", defaultMessage: "Skip to content" },
  mainNavigation: { id: "shell.nav.label", defaultMessage: "Main" },
  admin: { id: "shell.nav.admin", defaultMessage: "Admin" },
  mailbox: { id: "shell.nav.mailbox", defaultMessage: "Mailbox" },
  signIn: { id: "shell.nav.signIn", defaultMessage: "Sign in" },
});

/** Whether this build carries the development mailbox screen (not in production images). */
export const HAS_DEV_MAILBOX = import.meta.env.VITE_DEV_MAILBOX !== "false";

// The signed-in menus load with a session: the sign-in page does without their menu library.
const OrganizationSwitcher = lazy(() => import("./shell-menus").then((menus) => ({ default: menus.OrganizationSwitcher })));
const UserMenu = lazy(() => import("./shell-menus").then((menus) => ({ default: menus.UserMenu })));

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

/**
 * The app's frame. A buyer's page (checkout, customer portal) belongs to the seller: it shows the
 * seller's own header and none of the platform's navigation, and does not ask for a session.
 */
export function Shell() {
  const { formatMessage } = useIntl();
  const buyerPage = useMatches({ select: (matches) => matches.some((match) => match.staticData.buyerPage === true) });
  if (!buyerPage) return <PlatformShell />;
  return (
    <>
      <a className="skip-link" href="#content">
        {formatMessage(messages.skipToContent)}
      </a>
      <Outlet />
    </>
  );
}

function PlatformShell() {
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
        <Suspense>{session.data && <OrganizationSwitcher session={session.data} />}</Suspense>
        <nav aria-label={formatMessage(messages.mainNavigation)} className="app-nav">
          {isAdmin && <Link to="/admin/users">{formatMessage(messages.admin)}</Link>}
          {isAdmin && HAS_DEV_MAILBOX && <Link to="/dev/mailbox">{formatMessage(messages.mailbox)}</Link>}
          <LanguageSwitcher />
          <Suspense>{session.data ? <UserMenu session={session.data} /> : !session.isPending && <Link to="/sign-in">{formatMessage(messages.signIn)}</Link>}</Suspense>
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
