import type { IdentityClaims } from "@tollgate/proto";
import type { Request } from "express";
import { z } from "zod";
import { defineEndpoint, HttpError, type Endpoint } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { findUserAccount, updateAccount, type AccountRow } from "../accounts/accounts.sql.js";
import { authError } from "../http/errors.js";
import { requireSession } from "../sessions/current-session.js";
import { refreshTokens } from "./oauth2.js";
import type { ProviderTokens } from "./providers/types.js";
import { ProviderAccessToken, RefreshedTokens } from "./schemas.js";
import type { ConfiguredProvider } from "./settings.js";
import { sealTokens } from "./sign-in.js";

/** An access token due to expire this soon is refreshed before it is handed out. */
const REFRESH_MARGIN_MS = 5_000;

/**
 * Which account: better-auth's account id, or its account cookie (which Tollgate does not keep).
 * `userId` names the user only for server-side calls; over HTTP the session decides.
 */
const accountSelection = z.union([
  z.strictObject({ accountId: z.string(), userId: z.string().optional() }),
  z.strictObject({ useAccountCookie: z.literal(true), userId: z.string().optional() }),
]);

const scopesOf = (account: AccountRow) => account.scope?.split(",").filter(Boolean) ?? [];

/** The signed-in user's account and its provider, or better-auth's error for why there is none to use. */
async function selectedAccount(auth: Parts, identity: IdentityClaims, req: Request, selection: z.output<typeof accountSelection>) {
  const { user } = await requireSession(auth, identity, req);
  const account = "accountId" in selection ? await findUserAccount(auth.db, user.id, selection.accountId) : undefined;
  if (!account) throw authError(400, "ACCOUNT_NOT_FOUND");
  const provider = auth.providers.get(account.provider_id);
  if (!provider) throw new HttpError(400, "PROVIDER_NOT_SUPPORTED", `Provider ${account.provider_id} is not supported.`);
  return { account, provider };
}

/** Refreshes an account's tokens at the provider and stores what it gives (a refresh token it does not rotate is kept). */
async function refreshAccount(auth: Parts, provider: ConfiguredProvider, account: AccountRow, refreshToken: string): Promise<{ tokens: ProviderTokens; account: AccountRow }> {
  const tokens = await refreshTokens(provider, refreshToken);
  const updated = await updateAccount(auth.db, account.id, sealTokens(auth.vault, tokens));
  return { tokens, account: updated ?? account };
}

const isoOrUndefined = (date: Date | null) => date?.toISOString() ?? undefined;

export function providerTokenEndpoints(auth: Parts): Endpoint[] {
  const { vault } = auth;
  return [
    defineEndpoint(
      "/get-access-token",
      { method: "POST", body: accountSelection, response: ProviderAccessToken, summary: "Get a linked provider's access token, refreshed if it is about to expire", tag: "Default" },
      async ({ body, identity, req }) => {
        const { account, provider } = await selectedAccount(auth, identity, req, body);
        try {
          let current = account;
          const expiring = account.access_token_expires_at && account.access_token_expires_at.getTime() - Date.now() < REFRESH_MARGIN_MS;
          const refreshToken = vault.open(account.refresh_token);
          if (expiring && refreshToken && provider.definition.refreshable) current = (await refreshAccount(auth, provider, account, refreshToken)).account;
          return {
            accessToken: vault.open(current.access_token) ?? "",
            accessTokenExpiresAt: isoOrUndefined(current.access_token_expires_at),
            scopes: scopesOf(current),
            idToken: vault.open(current.id_token) ?? undefined,
          };
        } catch (error) {
          auth.logger.warn({ provider: provider.definition.id, reason: error instanceof Error ? error.message : String(error) }, "could not get a valid access token");
          throw authError(400, "FAILED_TO_GET_ACCESS_TOKEN");
        }
      },
    ),

    defineEndpoint(
      "/refresh-token",
      { method: "POST", body: accountSelection, response: RefreshedTokens, summary: "Refresh a linked provider's tokens now", tag: "Default" },
      async ({ body, identity, req }) => {
        const { account, provider } = await selectedAccount(auth, identity, req, body);
        const { id } = provider.definition;
        if (!provider.definition.refreshable) throw new HttpError(400, "TOKEN_REFRESH_NOT_SUPPORTED", `Provider ${id} does not support token refreshing.`);
        const refreshToken = vault.open(account.refresh_token);
        if (!refreshToken) throw authError(400, "REFRESH_TOKEN_NOT_FOUND");
        try {
          const { tokens, account: updated } = await refreshAccount(auth, provider, account, refreshToken);
          return {
            accessToken: tokens.accessToken,
            refreshToken: tokens.refreshToken ?? refreshToken,
            accessTokenExpiresAt: isoOrUndefined(tokens.accessTokenExpiresAt),
            refreshTokenExpiresAt: isoOrUndefined(updated.refresh_token_expires_at),
            scope: updated.scope,
            idToken: vault.open(updated.id_token) ?? undefined,
            providerId: id,
            accountId: account.id,
          };
        } catch (error) {
          auth.logger.warn({ provider: id, reason: error instanceof Error ? error.message : String(error) }, "could not refresh the access token");
          throw authError(400, "FAILED_TO_REFRESH_ACCESS_TOKEN");
        }
      },
    ),
  ];
}
