import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, Navigate, Outlet, useNavigate } from "@tanstack/react-router";
import { useState, type ReactNode } from "react";
import { authClient, orThrow, viaAuth, type Session } from "./api/auth-client";
import { describeError, type ApiError } from "./api/client";
import { Alert, Button, Loading } from "./ui/components";

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
  if (session.isPending) return <Loading what="your session" />;
  if (!session.data) return <Navigate to="/sign-in" search={{ redirect: comeBackTo }} replace />;
  if (admin && !session.data.user.role?.split(",").includes("admin")) {
    return <Alert tone="error">This page is for platform admins. Ask an admin to give you the admin role.</Alert>;
  }
  return <>{children(session.data)}</>;
}

function OrganizationSwitcher({ session }: { session: Session }) {
  const organizations = useQuery(organizationsQuery);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const active = organizations.data?.find((organization) => organization.id === session.session.activeOrganizationId);
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <Button variant="ghost" aria-label={`Organization: ${active?.name ?? "none chosen"}`}>
          {active?.name ?? "Organizations"} ▾
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="start">
          {organizations.isPending && <DropdownMenu.Label className="menu-label">Loading…</DropdownMenu.Label>}
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
              {organization.id === active?.id && <span className="sr-only"> (current)</span>}
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Item className="menu-item" onSelect={() => void navigate({ to: "/organizations/new" })}>
            New organization…
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
      You are signed in as <strong>{session.user.name}</strong> ({session.user.email}) on behalf of an admin.
      <Button variant="secondary" busy={busy} onClick={() => void stop()}>
        Stop impersonating
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
        <>We sent a verification link to {session.user.email}.</>
      ) : (
        <>
          Your e-mail address is not verified yet.
          <Button variant="secondary" busy={state === "sending"} onClick={() => void send()}>
            Send verification link
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
  const signOut = async () => {
    await viaAuth(() => authClient.signOut());
    queryClient.clear();
    await navigate({ to: "/sign-in" });
  };
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <Button variant="ghost" aria-label={`Account menu for ${session.user.name}`}>
          {session.user.name} ▾
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end">
          <DropdownMenu.Item className="menu-item" onSelect={() => void navigate({ to: "/account" })}>
            Account
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={() => void navigate({ to: "/purchases" })}>
            Purchases
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={() => void signOut()}>
            Sign out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

export function Shell() {
  const session = authClient.useSession();
  const isAdmin = session.data?.user.role?.split(",").includes("admin") ?? false;
  return (
    <>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="app-header">
        <Link to="/" className="brand">
          Tollgate
        </Link>
        {session.data && <OrganizationSwitcher session={session.data} />}
        <nav aria-label="Main" className="app-nav">
          {isAdmin && <Link to="/admin/users">Admin</Link>}
          {isAdmin && HAS_DEV_MAILBOX && <Link to="/dev/mailbox">Mailbox</Link>}
          {session.data ? <UserMenu session={session.data} /> : !session.isPending && <Link to="/sign-in">Sign in</Link>}
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
