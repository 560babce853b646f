import { randomId, type SecretVault, type UnitOfWork } from "@tollgate/kit";
import { userCreated, userUpdated } from "@tollgate/proto";
import type { Parts } from "../parts.js";
import type { Locale } from "../i18n/locales.js";
import { deleteOtherAccounts, findAccountByKey, insertProviderAccount, updateAccount, type ProviderTokenColumns } from "../accounts/accounts.sql.js";
import { revokeSessions } from "../sessions/issuance.js";
import { findSessionById } from "../sessions/sessions.sql.js";
import { userEventData } from "../users/output.js";
import { findUserByEmail, findUserById, insertUser, liftExpiredBan, updateUser, type UserRow } from "../users/users.sql.js";
import { queueVerificationMail } from "../verification/send.js";
import type { ProviderProfile, ProviderTokens } from "./providers/types.js";
import type { ConfiguredProvider } from "./settings.js";

/** What one provider said about a person, with the tokens it gave for them. */
export interface ProviderIdentity {
  provider: ConfiguredProvider;
  profile: ProviderProfile;
  tokens: ProviderTokens;
}

/** Why a sign-in with a provider did not end in a session; the callback's `error` codes, as better-auth names them. */
export type SignInFailure = "account_not_linked" | "signup_disabled" | "banned" | "email_not_verified";

export type SignInOutcome = { ok: true; user: UserRow; isNew: boolean } | { ok: false; error: SignInFailure };

/** Why linking an account to a signed-in user failed. */
export type LinkFailure = "unable_to_link_account" | "email_does_not_match" | "account_already_linked_to_different_user";

/**
 * The tokens a provider gave, sealed for storage. What it did not give is left out rather than
 * cleared: Google, for one, sends a refresh token only on the first consent.
 */
export function sealTokens(vault: SecretVault, tokens: ProviderTokens): Partial<ProviderTokenColumns> {
  const columns: Partial<ProviderTokenColumns> = {
    access_token: vault.seal(tokens.accessToken),
    refresh_token: vault.seal(tokens.refreshToken),
    id_token: vault.seal(tokens.idToken),
    access_token_expires_at: tokens.accessTokenExpiresAt,
    refresh_token_expires_at: tokens.refreshTokenExpiresAt,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== null));
}

/** Scopes as better-auth stores them: comma-separated, each once. */
export const mergeScopes = (stored: string | null, granted: string[]) =>
  [...new Set([...(stored?.split(",").filter(Boolean) ?? []), ...granted])].join(",") || null;

/**
 * An account from a provider may join an existing user with the same address only when the address
 * is trusted (the provider is trusted, or says it verified it) and linking is on; and, when configured,
 * only if the existing user verified it too, so nobody can pre-register someone else's address.
 */
function mayLinkImplicitly(auth: Parts, { provider, profile }: ProviderIdentity, existing: UserRow): boolean {
  const { config } = auth;
  if (!config.ACCOUNT_LINKING_ENABLED || (!provider.trusted && !profile.emailVerified)) return false;
  return !config.ACCOUNT_LINKING_REQUIRE_LOCAL_EMAIL_VERIFIED || existing.email_verified;
}

/**
 * Account pre-hijacking: someone may have signed up with the address before its owner, to wait for
 * the owner to join them. Nobody had proved the address; the person the provider now vouches for has,
 * so the user is theirs alone: every earlier way in (a password, other providers' accounts) and every
 * session goes.
 */
async function evictUnprovenHolder(unit: UnitOfWork, userId: string, keptAccountId: string): Promise<void> {
  await deleteOtherAccounts(unit.db, userId, keptAccountId);
  await revokeSessions(unit, { userId });
}

/**
 * Signs in the person a provider vouches for: the user their account belongs to, else the user with
 * their address (linked if allowed, and theirs alone if that user never proved the address), else a
 * new user (unless sign-up is off for the provider). Tokens
 * are stored sealed; the account's scopes change only when a user links it on purpose.
 */
export async function signInWithProvider(
  auth: Parts,
  identity: ProviderIdentity & { email: string },
  options: { requestSignUp?: boolean; callbackURL?: string; /** The browser's language, for mail to a user who chose none. */ requestLocale: Locale },
): Promise<SignInOutcome> {
  const { provider, profile, tokens, email } = identity;
  const providerId = provider.definition.id;
  const sealed = sealTokens(auth.vault, tokens);
  return auth.units.run(async (unit): Promise<SignInOutcome> => {
    const owned = await findAccountByKey(unit.db, providerId, profile.id);
    let user = owned ? await findUserById(unit.db, owned.user_id) : await findUserByEmail(unit.db, email.toLowerCase());
    let isNew = false;
    if (owned) {
      await updateAccount(unit.db, owned.id, sealed);
    } else if (user) {
      if (!mayLinkImplicitly(auth, identity, user)) return { ok: false, error: "account_not_linked" };
      const linked = await insertProviderAccount(unit.db, { user_id: user.id, provider_id: providerId, account_id: profile.id, scope: mergeScopes(null, tokens.scopes), ...sealed });
      if (!user.email_verified) await evictUnprovenHolder(unit, user.id, linked.id);
    } else {
      if (provider.signUp === "never" || (provider.signUp === "on-request" && !options.requestSignUp)) return { ok: false, error: "signup_disabled" };
      user = await insertUser(unit.db, { id: randomId(32), name: profile.name, email: email.toLowerCase(), image: profile.image, email_verified: profile.emailVerified });
      await insertProviderAccount(unit.db, { user_id: user.id, provider_id: providerId, account_id: profile.id, scope: mergeScopes(null, tokens.scopes), ...sealed });
      unit.announce(userCreated, userEventData(user));
      isNew = true;
    }
    if (!user) throw new Error(`account ${profile.id} of ${providerId} belongs to no user`);
    user = await confirmAddress(unit, user, identity, email);
    user = await liftExpiredBan(unit.db, user);
    if (user.banned) return { ok: false, error: "banned" };
    if (auth.config.REQUIRE_EMAIL_VERIFICATION && !user.email_verified) {
      queueVerificationMail(auth, unit, user, user.locale ?? options.requestLocale, options.callbackURL);
      return { ok: false, error: "email_not_verified" };
    }
    return { ok: true, user, isNew };
  });
}

/** A provider that verified the user's own address verifies it here too. */
async function confirmAddress(unit: UnitOfWork, user: UserRow, { profile }: ProviderIdentity, email: string): Promise<UserRow> {
  if (user.email_verified || !profile.emailVerified || email.toLowerCase() !== user.email) return user;
  const updated = await updateUser(unit.db, user.id, { email_verified: true });
  if (!updated) return user;
  unit.announce(userUpdated, userEventData(updated));
  return updated;
}

/** Whether the session that began a link flow is still the user's, and live, when the provider answers. */
export async function linkSessionLive(auth: Parts, link: { userId: string; sessionId: string }): Promise<boolean> {
  const session = await findSessionById(auth.db, link.sessionId);
  return Boolean(session && session.user_id === link.userId && session.expires_at > new Date());
}

/** Adds a provider's account to a signed-in user, or refreshes its tokens and scopes if it is theirs already. */
export async function linkProviderAccount(auth: Parts, identity: ProviderIdentity, link: { userId: string; email: string }): Promise<{ ok: true } | { ok: false; error: LinkFailure }> {
  const { provider, profile, tokens } = identity;
  const { config, db } = auth;
  if (!config.ACCOUNT_LINKING_ENABLED || (!provider.trusted && !profile.emailVerified)) return { ok: false, error: "unable_to_link_account" };
  if (profile.email?.toLowerCase() !== link.email.toLowerCase() && !config.ACCOUNT_LINKING_ALLOW_DIFFERENT_EMAILS) return { ok: false, error: "email_does_not_match" };
  const sealed = sealTokens(auth.vault, tokens);
  const existing = await findAccountByKey(db, provider.definition.id, profile.id);
  if (existing && existing.user_id !== link.userId) return { ok: false, error: "account_already_linked_to_different_user" };
  if (existing) await updateAccount(db, existing.id, { ...sealed, scope: mergeScopes(existing.scope, tokens.scopes) });
  else await insertProviderAccount(db, { user_id: link.userId, provider_id: provider.definition.id, account_id: profile.id, scope: mergeScopes(null, tokens.scopes), ...sealed });
  return { ok: true };
}
