import { queryOptions, useQuery } from "@tanstack/react-query";
import { authClient, viaAuth } from "../api/auth-client";
import { useChange } from "../api/mutations";

export const accountKeys = {
  sessions: ["sessions"] as const,
  linkedAccounts: ["accounts"] as const,
  passkeys: ["passkeys"] as const,
};

export const sessionsQuery = queryOptions({ queryKey: accountKeys.sessions, queryFn: () => viaAuth(() => authClient.listSessions()) });

/** The sign-in methods linked to the account: a password, and each social provider. */
export const useLinkedAccounts = () => useQuery({ queryKey: accountKeys.linkedAccounts, queryFn: () => viaAuth(() => authClient.listAccounts()) });

/** Signing a session (or all the others) out: refused or not, the list shows the sessions the server still has. */
export const useSessionChange = () => useChange((call: () => Promise<unknown>) => call(), () => [accountKeys.sessions], { evenIfRefused: true });

export const useUnlinkAccount = () => useChange((accountId: string) => viaAuth(() => authClient.unlinkAccount({ accountId })), () => [accountKeys.linkedAccounts], { evenIfRefused: true });

export const passkeysQuery = queryOptions({ queryKey: accountKeys.passkeys, queryFn: () => viaAuth(() => authClient.passkey.listUserPasskeys()) });
export type Passkey = Awaited<ReturnType<NonNullable<typeof passkeysQuery.queryFn>>>[number];

/** Adds a passkey: the browser makes it (asking for the fingerprint, face or PIN), the server keeps it. */
export const useAddPasskey = () => useChange((name: string) => viaAuth(() => authClient.passkey.addPasskey({ name })), () => [accountKeys.passkeys]);

export const useRenamePasskey = () =>
  useChange(({ id, name }: { id: string; name: string }) => viaAuth(() => authClient.passkey.updatePasskey({ id, name })), () => [accountKeys.passkeys]);

export const useDeletePasskey = () => useChange((id: string) => viaAuth(() => authClient.passkey.deletePasskey({ id })), () => [accountKeys.passkeys], { evenIfRefused: true });
