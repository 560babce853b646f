import { createHash } from "node:crypto";
import { z } from "zod";
import type { ProviderTokens } from "./providers/types.js";
import type { ConfiguredProvider } from "./settings.js";

const PROVIDER_TIMEOUT_MS = 10_000;

/** A provider answered with something other than success; the body stays out of it (it may hold secrets). */
export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    readonly status: number | null,
    what: string,
  ) {
    super(`${provider}: ${what}`);
    this.name = "ProviderError";
  }
}

/**
 * A call to a provider: JSON back, 10 s at most, and no redirects followed (a token endpoint that
 * redirects could send our client secret, or the code, somewhere else).
 */
export async function providerFetch(provider: ConfiguredProvider, url: string, init: { method?: string; headers?: Record<string, string>; body?: URLSearchParams } = {}): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? "GET",
      headers: { accept: "application/json", ...provider.definition.headers, ...init.headers },
      body: init.body,
      redirect: "manual",
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
  } catch (error) {
    throw new ProviderError(provider.definition.id, null, `unreachable (${error instanceof Error ? error.name : "error"})`);
  }
  if (!response.ok) throw new ProviderError(provider.definition.id, response.status, `answered ${response.status} for ${new URL(url).pathname}`);
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // A few token endpoints (GitHub's without an Accept header, Reddit's) may answer form-encoded.
    return Object.fromEntries(new URLSearchParams(text));
  }
}

export const pkceChallenge = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

export interface AuthorizationRequest {
  state: string;
  codeVerifier: string;
  redirectUri: string;
  scopes?: string[];
  loginHint?: string;
  additionalParams?: Record<string, string>;
}

/** Parameters the flow itself sets, which a client's `additionalParams` may not replace. */
const RESERVED_PARAMS = new Set(["state", "client_id", "client_key", "redirect_uri", "response_type", "code_challenge", "code_challenge_method", "nonce", "scope"]);

/** Where the browser goes to sign in at the provider. */
export function authorizationUrl(provider: ConfiguredProvider, request: AuthorizationRequest): string {
  const { definition } = provider;
  const url = new URL(provider.endpoints.authorization);
  const params = url.searchParams;
  for (const [name, value] of Object.entries(request.additionalParams ?? {})) if (!RESERVED_PARAMS.has(name)) params.set(name, value);
  for (const [name, value] of Object.entries(definition.authorizationParams ?? {})) params.set(name, value);
  params.set("response_type", "code");
  params.set(definition.clientAuthentication === "client_key" ? "client_key" : "client_id", provider.clientId);
  params.set("state", request.state);
  params.set("redirect_uri", request.redirectUri);
  const scopes = [...new Set([...definition.scopes, ...(request.scopes ?? [])])];
  if (scopes.length > 0) params.set("scope", scopes.join(definition.scopeSeparator ?? " "));
  if (request.loginHint) params.set("login_hint", request.loginHint);
  if (definition.pkce) {
    params.set("code_challenge_method", "S256");
    params.set("code_challenge", pkceChallenge(request.codeVerifier));
  }
  return url.toString();
}

const tokenResponse = z.looseObject({
  access_token: z.string().optional(),
  refresh_token: z.string().optional(),
  id_token: z.string().optional(),
  expires_in: z.coerce.number().optional(),
  refresh_token_expires_in: z.coerce.number().optional(),
  scope: z.union([z.string(), z.array(z.string())]).optional(),
  error: z.string().optional(),
});

const inSeconds = (seconds: number | undefined) => (seconds ? new Date(Date.now() + seconds * 1000) : null);

/** POSTs a grant to the token endpoint, authenticating the client the way the provider wants. */
async function tokenRequest(provider: ConfiguredProvider, grant: Record<string, string>): Promise<ProviderTokens> {
  const body = new URLSearchParams(grant);
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  switch (provider.definition.clientAuthentication) {
    case "basic":
      headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(provider.clientId)}:${encodeURIComponent(provider.clientSecret)}`).toString("base64")}`;
      break;
    case "client_key":
      body.set("client_key", provider.clientId);
      body.set("client_secret", provider.clientSecret);
      break;
    case "post":
      body.set("client_id", provider.clientId);
      body.set("client_secret", provider.clientSecret);
  }
  const parsed = tokenResponse.safeParse(await providerFetch(provider, provider.endpoints.token, { method: "POST", headers, body }));
  // Some providers (GitHub) answer 200 with an `error` field.
  if (!parsed.success || parsed.data.error || !parsed.data.access_token) throw new ProviderError(provider.definition.id, 200, "gave no access token");
  const tokens = parsed.data;
  return {
    accessToken: tokens.access_token ?? null,
    refreshToken: tokens.refresh_token ?? null,
    idToken: tokens.id_token ?? null,
    accessTokenExpiresAt: inSeconds(tokens.expires_in),
    refreshTokenExpiresAt: inSeconds(tokens.refresh_token_expires_in),
    scopes: Array.isArray(tokens.scope) ? tokens.scope : (tokens.scope?.split(/[\s,]+/).filter(Boolean) ?? []),
  };
}

/** Trades the callback's code (and the PKCE verifier it was asked for with) for tokens. */
export function exchangeCode(provider: ConfiguredProvider, exchange: { code: string; codeVerifier: string; redirectUri: string; deviceId?: string }): Promise<ProviderTokens> {
  return tokenRequest(provider, {
    grant_type: "authorization_code",
    code: exchange.code,
    redirect_uri: exchange.redirectUri,
    ...(provider.definition.pkce && { code_verifier: exchange.codeVerifier }),
    ...(exchange.deviceId && { device_id: exchange.deviceId }),
  });
}

export function refreshTokens(provider: ConfiguredProvider, refreshToken: string): Promise<ProviderTokens> {
  return tokenRequest(provider, { grant_type: "refresh_token", refresh_token: refreshToken });
}
