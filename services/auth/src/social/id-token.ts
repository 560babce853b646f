import { createHash } from "node:crypto";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import type { ConfiguredProvider } from "./settings.js";

/** One key set per JWKS address, kept by jose: fetched when first needed, cached, refetched for an unknown key id. */
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySet(url: string): ReturnType<typeof createRemoteJWKSet> {
  let keys = keySets.get(url);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(url), { timeoutDuration: 5_000, cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 });
    keySets.set(url, keys);
  }
  return keys;
}

/** Whether the provider's ID tokens can be presented by a client to sign in. */
export const acceptsIdTokens = (provider: ConfiguredProvider) => Boolean(provider.definition.idToken && provider.endpoints.jwks);

/**
 * The claims of an ID token a client presents, once its signature (against the provider's JWKS), issuer,
 * audience, expiry, age and nonce check out; null otherwise.
 */
export async function verifyIdToken(provider: ConfiguredProvider, token: string, nonce: string | undefined): Promise<Record<string, unknown> | null> {
  const rules = provider.definition.idToken;
  if (!rules || !provider.endpoints.jwks) return null;
  try {
    const { payload } = await jwtVerify(token, keySet(provider.endpoints.jwks), {
      issuer: rules.issuer,
      audience: provider.audiences,
      algorithms: ["RS256", "ES256"],
      maxTokenAge: rules.maxAge,
      requiredClaims: ["iss", "sub", "aud", "exp", "iat"],
      clockTolerance: 30,
    });
    if (nonce !== undefined) {
      const hashed = createHash("sha256").update(nonce).digest("hex");
      if (payload.nonce !== nonce && !(rules.nonceMayBeHashed && payload.nonce === hashed)) return null;
    }
    if (rules.acceptClaims && !rules.acceptClaims(payload, provider.settings)) return null;
    return payload;
  } catch {
    return null;
  }
}

/** The claims of an ID token that came straight from the provider's token endpoint over TLS. */
export function claimsOf(idToken: string | null): Record<string, unknown> | null {
  if (!idToken) return null;
  try {
    return decodeJwt(idToken);
  } catch {
    return null;
  }
}
