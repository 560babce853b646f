import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { authClient, viaAuth, type Session } from "../api/auth-client";
import { type ApiError, describeError, describeFailure, failureOf } from "../api/client";
import { useSocialProviders } from "../auth/social-buttons";
import { relativeTime } from "../i18n/format";
import { t } from "../i18n/translate";
import { Alert, Button, Card, Field } from "../ui/components";
import { QueryState } from "../ui/query-state";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { outcomeOf, OutcomeAlert, type Outcome } from "../ui/outcome";
import { sessionsQuery, useLinkedAccounts, useSessionChange, useUnlinkAccount } from "./queries";

const messages = defineMessages({
  unknownDevice: { id: "account.device.unknown", defaultMessage: "Unknown device" },
  aBrowser: { id: "account.device.aBrowser", defaultMessage: "A browser" },
  browserOnSystem: defineMessage<{ browser: string; system: string }>({ id: "account.device.browserOnSystem", defaultMessage: "{browser} on {system}" }),
  sessionsTitle: { id: "account.sessions.title", defaultMessage: "Where you are signed in" },
  loadingSessions: { id: "account.sessions.loading", defaultMessage: "Loading your sessions…" },
  thisDevice: { id: "account.sessions.thisDevice", defaultMessage: "This device" },
  unknownAddress: { id: "account.sessions.unknownAddress", defaultMessage: "Unknown address" },
  lastActive: defineMessage<{ address: string; when: string }>({ id: "account.sessions.lastActive", defaultMessage: "{address} · last active {when}" }),
  sessionSignedOut: { id: "account.sessions.signedOut", defaultMessage: "That session is signed out." },
  signOut: { id: "account.sessions.signOut", defaultMessage: "Sign out" },
  othersSignedOut: { id: "account.sessions.othersSignedOut", defaultMessage: "Your other devices are signed out." },
  signOutOthers: { id: "account.sessions.signOutOthers", defaultMessage: "Sign out other devices" },
  allSignedOut: { id: "account.sessions.allSignedOut", defaultMessage: "Every session is signed out." },
  signOutEverywhere: { id: "account.sessions.signOutEverywhere", defaultMessage: "Sign out everywhere" },
  loadingLinked: { id: "account.linked.loading", defaultMessage: "Loading linked accounts…" },
  emailAndPassword: { id: "account.linked.emailAndPassword", defaultMessage: "E-mail and password" },
  linkedTitle: { id: "account.linked.title", defaultMessage: "Ways to sign in" },
  linkedDescription: { id: "account.linked.description", defaultMessage: "Link a provider to sign in with it too." },
  access: defineMessage<{ scopes: string }>({ id: "account.linked.access", defaultMessage: "Access: {scopes}" }),
  onlyWay: { id: "account.linked.onlyWay", defaultMessage: "This is your only way to sign in, so it cannot be unlinked." },
  unlink: { id: "account.linked.unlink", defaultMessage: "Unlink" },
  linkAnotherFirst: { id: "account.linked.linkAnotherFirst", defaultMessage: "Your only way to sign in cannot be unlinked; link another first." },
  link: defineMessage<{ provider: string }>({ id: "account.linked.link", defaultMessage: "Link {provider}" }),
  deletionLinkSent: { id: "account.delete.linkSent", defaultMessage: "We sent you a link: your account is deleted when you open it." },
  deleteTitle: { id: "account.delete.title", defaultMessage: "Delete account" },
  deleteDescription: { id: "account.delete.description", defaultMessage: "Your account, its sessions and its sign-in methods go for good." },
  deleteTrigger: { id: "account.delete.trigger", defaultMessage: "Delete my account…" },
  deleteConfirmTitle: { id: "account.delete.confirmTitle", defaultMessage: "Delete your account?" },
  deleteConfirmText: { id: "account.delete.confirmText", defaultMessage: "This cannot be undone. Organizations you alone own are deleted with it." },
  deleteConfirm: { id: "account.delete.confirm", defaultMessage: "Delete my account" },
  yourPassword: { id: "account.delete.password", defaultMessage: "Your password" },
});

/** A user agent as a person would name the device: "Firefox on Linux" (browser and system names are not translated). */
export function deviceName(userAgent: string | null | undefined): string {
  if (!userAgent) return t(messages.unknownDevice);
  const browser = /Edg\//.test(userAgent) ? "Edge" : /Firefox\//.test(userAgent) ? "Firefox" : /Chrome\//.test(userAgent) ? "Chrome" : /Safari\//.test(userAgent) ? "Safari" : t(messages.aBrowser);
  const system = /Android/.test(userAgent) ? "Android" : /iPhone|iPad/.test(userAgent) ? "iOS" : /Windows/.test(userAgent) ? "Windows" : /Mac OS X/.test(userAgent) ? "macOS" : /Linux/.test(userAgent) ? "Linux" : null;
  return system ? t(messages.browserOnSystem, { browser, system }) : browser;
}

/** Said of a session whose IP address is not known; the admin's list of a user's sessions says it too. */
export const unknownAddress = messages.unknownAddress;

export function SessionsCard({ session }: { session: Session }) {
  const { formatMessage } = useIntl();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const sessions = useQuery(sessionsQuery);
  const sessionChange = useSessionChange();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const act = async (call: () => Promise<unknown>, success: string) => {
    const result = await outcomeOf(sessionChange.mutateAsync(call), success);
    setOutcome(result);
    return result?.tone === "success";
  };
  return (
    <Card title={formatMessage(messages.sessionsTitle)}>
      <QueryState query={sessions} loading={messages.loadingSessions}>
        {(list) => (
          <ul className="list">
            {list.map((entry) => {
              const current = entry.id === session.session.id;
              return (
                <li key={entry.id} className="list-row">
                  <div>
                    <strong>{deviceName(entry.userAgent)}</strong>
                    {current && <span className="badge">{formatMessage(messages.thisDevice)}</span>}
                    <p className="muted">
                      {formatMessage(messages.lastActive, { address: entry.ipAddress ?? formatMessage(messages.unknownAddress), when: relativeTime(entry.updatedAt) })}
                    </p>
                  </div>
                  {!current && (
                    <Button variant="secondary" onClick={() => void act(() => viaAuth(() => authClient.revokeSession({ token: entry.token })), formatMessage(messages.sessionSignedOut))}>
                      {formatMessage(messages.signOut)}
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </QueryState>
      <OutcomeAlert outcome={outcome} />
      <div className="actions">
        <Button variant="secondary" onClick={() => void act(() => viaAuth(() => authClient.revokeOtherSessions()), formatMessage(messages.othersSignedOut))}>
          {formatMessage(messages.signOutOthers)}
        </Button>
        <Button
          variant="danger"
          onClick={() =>
            void act(() => viaAuth(() => authClient.revokeSessions()), formatMessage(messages.allSignedOut)).then(async (done) => {
              if (!done) return;
              queryClient.clear();
              await navigate({ to: "/sign-in" });
            })
          }
        >
          {formatMessage(messages.signOutEverywhere)}
        </Button>
      </div>
    </Card>
  );
}

export function LinkedAccountsCard() {
  const { formatMessage } = useIntl();
  const accounts = useLinkedAccounts();
  const providers = useSocialProviders();
  const [failure, setFailure] = useState<ApiError | null>(null);
  const unlink = useUnlinkAccount();
  const link = async (provider: string) => {
    setFailure(null);
    try {
      await viaAuth(() => authClient.linkSocial({ provider, callbackURL: "/account", errorCallbackURL: "/auth-error" }));
    } catch (reason) {
      setFailure(failureOf(reason));
    }
  };
  const nameOf = (id: string) => (id === "credential" ? formatMessage(messages.emailAndPassword) : (providers.data?.find((provider) => provider.id === id)?.name ?? id));
  return (
    <QueryState query={accounts} loading={messages.loadingLinked}>
      {(linked) => {
        const unlinkable = linked.length > 1;
        const available = (providers.data ?? []).filter((provider) => !linked.some((account) => account.providerId === provider.id));
        return (
          <Card title={formatMessage(messages.linkedTitle)} description={formatMessage(messages.linkedDescription)}>
            <ul className="list">
              {linked.map((account) => (
                <li key={account.id} className="list-row">
                  <div>
                    <strong>{nameOf(account.providerId)}</strong>
                    {account.scopes.length > 0 && <p className="muted">{formatMessage(messages.access, { scopes: account.scopes.join(", ") })}</p>}
                  </div>
                  <Button
                    variant="secondary"
                    disabled={!unlinkable}
                    title={unlinkable ? undefined : formatMessage(messages.onlyWay)}
                    busy={unlink.isPending && unlink.variables === account.id}
                    onClick={() => unlink.mutate(account.id)}
                  >
                    {formatMessage(messages.unlink)}
                  </Button>
                </li>
              ))}
            </ul>
            {!unlinkable && <p className="hint">{formatMessage(messages.linkAnotherFirst)}</p>}
            {unlink.error && <Alert tone="error">{unlink.error.message}</Alert>}
            {available.length > 0 && (
              <div className="actions">
                {available.map((provider) => (
                  <Button key={provider.id} variant="secondary" onClick={() => void link(provider.id)}>
                    {formatMessage(messages.link, { provider: provider.name })}
                  </Button>
                ))}
              </div>
            )}
            {failure && <Alert tone="error">{describeError(failure)}</Alert>}
          </Card>
        );
      }}
    </QueryState>
  );
}

export function DeleteAccountCard() {
  const { formatMessage } = useIntl();
  const accounts = useLinkedAccounts();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState("");
  const [outcome, setOutcome] = useState<Outcome>(null);
  const hasPassword = accounts.data?.some((account) => account.providerId === "credential") ?? false;
  const remove = async () => {
    let result: { message: string };
    try {
      result = await viaAuth(() => authClient.deleteUser({ callbackURL: "/", ...(hasPassword ? { password } : {}) }));
    } catch (reason) {
      setOutcome({ tone: "error", text: describeFailure(reason) });
      return false;
    }
    // better-auth's own answer when deletion waits for the mailed link (a protocol value, not shown text).
    if (result.message === "Verification email sent") {
      setOutcome({ tone: "success", text: formatMessage(messages.deletionLinkSent) });
      return true;
    }
    queryClient.clear();
    await navigate({ to: "/sign-in" });
    return true;
  };
  return (
    <Card title={formatMessage(messages.deleteTitle)} description={formatMessage(messages.deleteDescription)}>
      <OutcomeAlert outcome={outcome} />
      <ConfirmDialog
        trigger={<Button variant="danger">{formatMessage(messages.deleteTrigger)}</Button>}
        title={formatMessage(messages.deleteConfirmTitle)}
        description={formatMessage(messages.deleteConfirmText)}
        confirmLabel={formatMessage(messages.deleteConfirm)}
        onConfirm={remove}
      >
        {hasPassword && (
          <Field label={formatMessage(messages.yourPassword)}>
            {(ids) => <input {...ids} type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />}
          </Field>
        )}
        {outcome?.tone === "error" && <Alert tone="error">{outcome.text}</Alert>}
      </ConfirmDialog>
    </Card>
  );
}
