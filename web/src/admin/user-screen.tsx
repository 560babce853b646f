import { outcomeOf } from "../ui/outcome";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { deviceName, unknownAddress } from "../account/session-cards";
import { authClient, viaAuth } from "../api/auth-client";
import { describeFailure } from "../api/client";
import { banExpiresIn, banForm, setPasswordForm } from "./form";
import { longDateTime } from "../i18n/format";
import { RequireSession } from "../shell";
import { Alert, Button, Card, Field, Page } from "../ui/components";
import { QueryState } from "../ui/query-state";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { userQuery, type AdminUser, userSessionsQuery, useUserChange } from "./queries";
import { roleNames } from "./roles";
import { adminMessages } from "./users-screen";

const messages = defineMessages({
  loading: { id: "admin.user.loading", defaultMessage: "Loading the user…" },
  noSuchUser: { id: "admin.user.notFound", defaultMessage: "No such user." },
  summary: defineMessage<{ email: string; role: string; banned: string }>({
    id: "admin.user.summary",
    defaultMessage: "{email} · {role}{banned, select, yes { · banned} other {}}",
  }),
  allUsers: { id: "admin.user.allUsers", defaultMessage: "All users" },
  nowUser: defineMessage<{ name: string }>({ id: "admin.user.nowUser", defaultMessage: "{name} is now a user." }),
  nowAdmin: defineMessage<{ name: string }>({ id: "admin.user.nowAdmin", defaultMessage: "{name} is now an admin." }),
  makeUser: { id: "admin.user.makeUser", defaultMessage: "Make a regular user" },
  makeAdmin: { id: "admin.user.makeAdmin", defaultMessage: "Make an admin" },
  ban: { id: "admin.user.ban.title", defaultMessage: "Ban" },
  banReason: defineMessage<{ reason: string }>({ id: "admin.user.ban.reason", defaultMessage: "Reason: {reason}" }),
  noReason: { id: "admin.user.ban.noReason", defaultMessage: "none given" },
  bannedUntil: defineMessage<{ until: string }>({ id: "admin.user.ban.until", defaultMessage: "until {until}" }),
  bannedForGood: { id: "admin.user.ban.forGood", defaultMessage: "for good" },
  banExplained: { id: "admin.user.ban.explained", defaultMessage: "A banned user cannot sign in, and is signed out everywhere at once." },
  unbanned: defineMessage<{ name: string }>({ id: "admin.user.unbanned", defaultMessage: "{name} can sign in again." }),
  unban: { id: "admin.user.unban", defaultMessage: "Unban" },
  isBanned: defineMessage<{ name: string }>({ id: "admin.user.banned", defaultMessage: "{name} is banned." }),
  reason: { id: "admin.user.ban.reasonField", defaultMessage: "Reason" },
  days: { id: "admin.user.ban.days", defaultMessage: "Days (empty for good)" },
  banUser: { id: "admin.user.ban.submit", defaultMessage: "Ban user" },
  passwordSet: { id: "admin.user.password.set", defaultMessage: "The password is set." },
  newPassword: { id: "admin.user.password.new", defaultMessage: "New password" },
  setPassword: { id: "admin.user.password.submit", defaultMessage: "Set password" },
  sessions: { id: "admin.user.sessions.title", defaultMessage: "Sessions" },
  loadingSessions: { id: "admin.user.sessions.loading", defaultMessage: "Loading sessions…" },
  noSessions: { id: "admin.user.sessions.none", defaultMessage: "Not signed in anywhere." },
  impersonation: { id: "admin.user.sessions.impersonation", defaultMessage: "Impersonation" },
  sessionUntil: defineMessage<{ address: string; until: string }>({ id: "admin.user.sessions.until", defaultMessage: "{address} · until {until}" }),
  sessionSignedOut: { id: "admin.user.sessions.signedOut", defaultMessage: "That session is signed out." },
  signOut: { id: "admin.user.sessions.signOut", defaultMessage: "Sign out" },
  allSignedOut: { id: "admin.user.sessions.allSignedOut", defaultMessage: "Every session of this user is signed out." },
  signOutEverywhere: { id: "admin.user.sessions.signOutEverywhere", defaultMessage: "Sign out everywhere" },
  actAs: { id: "admin.user.impersonate.title", defaultMessage: "Act as this user" },
  actAsExplained: { id: "admin.user.impersonate.explained", defaultMessage: "You see Tollgate as they do for up to an hour; a banner shows the way back." },
  impersonate: defineMessage<{ name: string }>({ id: "admin.user.impersonate.submit", defaultMessage: "Impersonate {name}" }),
  remove: { id: "admin.user.remove.title", defaultMessage: "Remove" },
  removeTrigger: { id: "admin.user.remove.trigger", defaultMessage: "Remove user…" },
  removeConfirmTitle: defineMessage<{ name: string }>({ id: "admin.user.remove.confirmTitle", defaultMessage: "Remove {name}?" }),
  removeConfirmText: { id: "admin.user.remove.confirmText", defaultMessage: "Their account, sessions and sign-in methods are deleted. This cannot be undone." },
  removeConfirm: { id: "admin.user.remove.confirm", defaultMessage: "Remove user" },
  removed: { id: "admin.user.remove.done", defaultMessage: "The user is removed." },
});

export function AdminUserScreen() {
  const { userId } = useParams({ strict: false });
  return <RequireSession admin>{() => <LoadedUser userId={userId ?? ""} />}</RequireSession>;
}

function LoadedUser({ userId }: { userId: string }) {
  const { formatMessage } = useIntl();
  const user = useQuery(userQuery(userId));
  return (
    <QueryState query={user} loading={messages.loading} isEmpty={(found) => !found} empty={<Alert tone="error">{formatMessage(messages.noSuchUser)}</Alert>}>
      {(found) => found && <UserDetail userId={userId} data={found} />}
    </QueryState>
  );
}

function UserDetail({ userId, data }: { userId: string; data: AdminUser }) {
  const { formatMessage } = useIntl();
  const queryClient = useQueryClient();
  const change = useUserChange(userId);
  const navigate = useNavigate();
  const sessions = useQuery(userSessionsQuery(userId));
  const [outcome, setOutcome] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const ban = useForm({ resolver: zodResolver(banForm), defaultValues: { reason: "", days: "" } });
  const password = useForm({ resolver: zodResolver(setPasswordForm), defaultValues: { password: "" } });
  const act = async (call: () => Promise<unknown>, success: string) => {
    const result = await outcomeOf(change.mutateAsync(call), success);
    setOutcome(result);
    return result?.tone === "success";
  };
  const name = data.name;
  const isAdmin = data.role?.split(",").includes("admin") ?? false;
  const impersonate = async () => {
    try {
      await viaAuth(() => authClient.admin.impersonateUser({ userId }));
    } catch (reason) {
      return setOutcome({ tone: "error", text: describeFailure(reason) });
    }
    await queryClient.invalidateQueries();
    await navigate({ to: "/" });
  };
  const banDetails = [
    formatMessage(messages.banReason, { reason: data.banReason ?? formatMessage(messages.noReason) }),
    data.banExpires ? formatMessage(messages.bannedUntil, { until: longDateTime(data.banExpires) }) : formatMessage(messages.bannedForGood),
  ].join(" · ");
  return (
    <Page
      title={name}
      description={formatMessage(messages.summary, { email: data.email, role: roleNames(data.role), banned: data.banned ? "yes" : "no" })}
      actions={<Link to="/admin/users">{formatMessage(messages.allUsers)}</Link>}
    >
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
      <div className="stack">
        <Card title={formatMessage(adminMessages.role)}>
          <Button
            variant="secondary"
            onClick={() => void act(() => viaAuth(() => authClient.admin.setRole({ userId, role: isAdmin ? "user" : "admin" })), formatMessage(isAdmin ? messages.nowUser : messages.nowAdmin, { name }))}
          >
            {formatMessage(isAdmin ? messages.makeUser : messages.makeAdmin)}
          </Button>
        </Card>
        <Card title={formatMessage(data.banned ? adminMessages.banned : messages.ban)} description={data.banned ? banDetails : formatMessage(messages.banExplained)}>
          {data.banned ? (
            <Button onClick={() => void act(() => viaAuth(() => authClient.admin.unbanUser({ userId })), formatMessage(messages.unbanned, { name }))}>{formatMessage(messages.unban)}</Button>
          ) : (
            <form
              noValidate
              onSubmit={(event) =>
                void ban.handleSubmit(async ({ reason, days }) => {
                  const banned = await act(
                    () => viaAuth(() => authClient.admin.banUser({ userId, banReason: reason || undefined, banExpiresIn: banExpiresIn(days) })),
                    formatMessage(messages.isBanned, { name }),
                  );
                  if (banned) ban.reset();
                })(event)
              }
            >
              <Field label={formatMessage(messages.reason)} error={ban.formState.errors.reason?.message}>
                {(ids) => <input {...ids} {...ban.register("reason")} />}
              </Field>
              <Field label={formatMessage(messages.days)} error={ban.formState.errors.days?.message}>
                {(ids) => <input {...ids} {...ban.register("days")} inputMode="numeric" />}
              </Field>
              <Button type="submit" variant="danger" busy={ban.formState.isSubmitting}>
                {formatMessage(messages.banUser)}
              </Button>
            </form>
          )}
        </Card>
        <Card title={formatMessage(adminMessages.password)}>
          <form
            noValidate
            onSubmit={(event) =>
              void password.handleSubmit(async (values) => {
                if (await act(() => viaAuth(() => authClient.admin.setUserPassword({ userId, newPassword: values.password })), formatMessage(messages.passwordSet))) password.reset();
              })(event)
            }
          >
            <Field label={formatMessage(messages.newPassword)} error={password.formState.errors.password?.message}>
              {(ids) => <input {...ids} {...password.register("password")} type="password" autoComplete="new-password" />}
            </Field>
            <Button type="submit" variant="secondary" busy={password.formState.isSubmitting}>
              {formatMessage(messages.setPassword)}
            </Button>
          </form>
        </Card>
        <Card title={formatMessage(messages.sessions)}>
          <QueryState
            query={sessions}
            loading={messages.loadingSessions}
            isEmpty={(listed) => listed.sessions.length === 0}
            empty={<p className="muted">{formatMessage(messages.noSessions)}</p>}
          >
            {(listed) => (
              <ul className="list">
                {listed.sessions.map((session) => (
                  <li key={session.id} className="list-row">
                    <div>
                      <strong>{deviceName(session.userAgent)}</strong>
                      {session.impersonatedBy && <span className="badge">{formatMessage(messages.impersonation)}</span>}
                      <p className="muted">{formatMessage(messages.sessionUntil, { address: session.ipAddress ?? formatMessage(unknownAddress), until: longDateTime(session.expiresAt) })}</p>
                    </div>
                    <Button variant="secondary" onClick={() => void act(() => viaAuth(() => authClient.admin.revokeUserSession({ sessionToken: session.token })), formatMessage(messages.sessionSignedOut))}>
                      {formatMessage(messages.signOut)}
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </QueryState>
          <Button variant="secondary" onClick={() => void act(() => viaAuth(() => authClient.admin.revokeUserSessions({ userId })), formatMessage(messages.allSignedOut))}>
            {formatMessage(messages.signOutEverywhere)}
          </Button>
        </Card>
        <Card title={formatMessage(messages.actAs)} description={formatMessage(messages.actAsExplained)}>
          <Button variant="secondary" onClick={() => void impersonate()}>
            {formatMessage(messages.impersonate, { name })}
          </Button>
        </Card>
        <Card title={formatMessage(messages.remove)}>
          <ConfirmDialog
            trigger={<Button variant="danger">{formatMessage(messages.removeTrigger)}</Button>}
            title={formatMessage(messages.removeConfirmTitle, { name })}
            description={formatMessage(messages.removeConfirmText)}
            confirmLabel={formatMessage(messages.removeConfirm)}
            onConfirm={async () => {
              const done = await act(() => viaAuth(() => authClient.admin.removeUser({ userId })), formatMessage(messages.removed));
              if (done) await navigate({ to: "/admin/users" });
              return done;
            }}
          />
        </Card>
      </div>
    </Page>
  );
}
