import { Link, Navigate, Outlet, useMatches } from "@tanstack/react-router";
import { lazy, Suspense, useState, type ReactNode } from "react";
import { defineMessages, FormattedMessage, useIntl } from "react-intl";
import type { Session } from "./api/auth-client";
import { useSession } from "./api/session";
import { LanguageSwitcher } from "./i18n/switcher";
import { Alert, Loading } from "./ui/components";

const messages = defineMessages({
  loadingSession: { id: "shell.loading.session", defaultMessage: "Loading your session…" },
  adminsOnly: { id: "shell.adminsOnly", defaultMessage: "This page is for platform admins. Ask an admin to give you the admin role." },
  skipToContent: { id: "shell.skipToContent", defaultMessage: "Skip to content" },
  mainNavigation: { id: "shell.nav.label", defaultMessage: "Main" },
  admin: { id: "shell.nav.admin", defaultMessage: "Admin" },
  mailbox: { id: "shell.nav.mailbox", defaultMessage: "Mailbox" },
  signIn: { id: "shell.nav.signIn", defaultMessage: "Sign in" },
});

/** Whether this build carries the development mailbox screen (not in production images). */
export const HAS_DEV_MAILBOX = import.meta.env.VITE_DEV_MAILBOX !== "false";

// The signed-in menus and banners load with a session: the sign-in page does without their menu
// library and without better-auth's client, which they act through.
const OrganizationSwitcher = lazy(() => import("./shell-menus").then((menus) => ({ default: menus.OrganizationSwitcher })));
const UserMenu = lazy(() => import("./shell-menus").then((menus) => ({ default: menus.UserMenu })));
const SessionBanners = lazy(() => import("./shell-banners").then((banners) => ({ default: banners.SessionBanners })));

/** Children only for a signed-in user; others are sent to sign in and brought back afterwards. */
export function RequireSession({ children, admin = false }: { children: (session: Session) => ReactNode; admin?: boolean }) {
  const session = useSession();
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
  const session = useSession();
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
      <Suspense>{session.data && <SessionBanners session={session.data} />}</Suspense>
      <main className="app-main" id="content">
        <Outlet />
      </main>
    </>
  );
}
