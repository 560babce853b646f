import { queryOptions } from "@tanstack/react-query";
import { authClient, viaAuth } from "../api/auth-client";
import { useChange } from "../api/mutations";

/** Whose keys: the signed-in user's own, or an organization's. */
export type KeyOwner = { organizationId?: string };

export const apiKeyKeys = {
  all: ["api-keys"] as const,
  list: (owner: KeyOwner) => [...apiKeyKeys.all, "list", owner.organizationId ?? "own"] as const,
};

export const apiKeysQuery = (owner: KeyOwner) =>
  queryOptions({
    queryKey: apiKeyKeys.list(owner),
    queryFn: () => viaAuth(() => authClient.apiKey.list({ query: { ...owner, sortBy: "createdAt", sortDirection: "desc" } })),
  });

export type ApiKey = Awaited<ReturnType<NonNullable<ReturnType<typeof apiKeysQuery>["queryFn"]>>>["apiKeys"][number];

/** A new key: the answer carries the key itself, this once. */
export const useCreateApiKey = () =>
  useChange((input: KeyOwner & { name: string; expiresIn: number | null }) => viaAuth(() => authClient.apiKey.create(input)), () => [apiKeyKeys.all]);

export const useRevokeApiKey = () => useChange((keyId: string) => viaAuth(() => authClient.apiKey.delete({ keyId })), () => [apiKeyKeys.all], { evenIfRefused: true });
