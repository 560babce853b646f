import type { z } from "zod";

/** The endpoints a provider is reached at; each has a default and can be pointed elsewhere by configuration. */
export interface ProviderEndpoints {
  authorization: string;
  token: string;
  /** The profile (user-info) endpoint, for providers whose profile is not all in the ID token. */
  userInfo?: string;
  /** GitHub's list of the user's addresses, where the verified primary one is found. */
  emails?: string;
  /** Where the keys that sign the provider's ID tokens are published. */
  jwks?: string;
}

/** What configuration can change about a provider beyond its client credentials and endpoints. */
export interface ProviderSettings {
  /** Where the provider lives, for self-hosted GitLab and Microsoft's national clouds (its authority). */
  issuer?: string;
  /** Microsoft's tenant (`common`, `organizations`, `consumers` or a tenant id). */
  tenant?: string;
}

/** Tokens as a provider's token endpoint gives them. */
export interface ProviderTokens {
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: Date | null;
  refreshTokenExpiresAt: Date | null;
  scopes: string[];
}

/** A person as Tollgate needs them from a provider. */
export interface ProviderProfile {
  /** The provider's stable id for the person: the account id. */
  id: string;
  /** Null when the provider gave none; some providers get a placeholder instead (see `placeholderEmail`). */
  email: string | null;
  emailVerified: boolean;
  name: string;
  image: string | null;
}

/** What a provider's profile mapping may read: its endpoints' answers and the ID token's claims. */
export interface ProfileSource {
  /** GET (or POST) one of the provider's endpoints with the access token as bearer; throws on a non-2xx answer. */
  fetchJson: (url: string, init?: { method?: "GET" | "POST"; form?: Record<string, string> }) => Promise<unknown>;
  accessToken: string | null;
  endpoints: ProviderEndpoints;
  /** The ID token's claims: from the token endpoint, or verified when a client presented the token. */
  claims: Record<string, unknown> | null;
  clientId: string;
  /** Apple's `user` form field (JSON), sent on a person's first sign-in only. */
  appleUser: string | null;
}

export interface IdTokenRules {
  /** Accepted `iss` values. Microsoft's depends on the tenant the token names (see `acceptClaims`). */
  issuer?: string | string[];
  /** Further checks on verified claims; false refuses the token. */
  acceptClaims?(claims: Record<string, unknown>, settings: ProviderSettings): boolean;
  /** Apple signs the SHA-256 of the nonce when a native app hashed it. */
  nonceMayBeHashed?: boolean;
  /** Longest accepted age from `iat`. */
  maxAge?: string;
}

export interface ProviderDefinition {
  id: string;
  name: string;
  endpoints(settings: ProviderSettings): ProviderEndpoints;
  scopes: string[];
  /** TikTok joins scopes with commas. */
  scopeSeparator?: string;
  /** Whether the authorization request carries a PKCE challenge (S256). */
  pkce: boolean;
  /** How the client authenticates at the token endpoint: client_secret_post, HTTP basic, or TikTok's client_key. */
  clientAuthentication: "post" | "basic" | "client_key";
  /** Fixed parameters of the authorization request. */
  authorizationParams?: Record<string, string>;
  /** Headers some APIs require on every call (Reddit's and GitHub's User-Agent). */
  headers?: Record<string, string>;
  /** Present for providers whose ID tokens a client may present to sign in (checked against `endpoints.jwks`). */
  idToken?: IdTokenRules;
  /** Whether the provider issues refresh tokens that `refresh_token` grants accept. */
  refreshable: boolean;
  profile(source: ProfileSource): Promise<ProviderProfile | null>;
}

/** A profile mapping over the ID token's claims; no profile when they are not of the expected shape. */
export function fromClaims<Claims extends z.ZodType>(
  schema: Claims,
  map: (claims: z.output<Claims>, source: ProfileSource) => ProviderProfile,
): (source: ProfileSource) => Promise<ProviderProfile | null> {
  return (source) => {
    const parsed = schema.safeParse(source.claims);
    return Promise.resolve(parsed.success ? map(parsed.data, source) : null);
  };
}

/** A stable address that routes nowhere (RFC 6761), for providers that never tell an e-mail address. */
export const placeholderEmail = (id: string, provider: string) => `${id}@${provider}.placeholder.invalid`.toLowerCase();

/** Providers send booleans as booleans, strings or 0/1. */
export const truthy = (value: unknown) => value === true || value === "true" || value === 1;

export const stringOrNull = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);
