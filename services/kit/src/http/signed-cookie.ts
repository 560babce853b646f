import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * better-auth's signed cookie values (better-call's format): `<value>.<base64 HMAC-SHA256 of value>`,
 * URI-encoded. The auth service writes them; the gateway verifies them.
 */
export function signCookieValue(value: string, secret: string): string {
  return encodeURIComponent(`${value}.${createHmac("sha256", secret).update(value).digest("base64")}`);
}

/** The value inside a signed cookie, or null when it is malformed or its signature does not match. */
export function verifyCookieValue(raw: string, secret: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  const dot = decoded.lastIndexOf(".");
  if (dot < 1) return null;
  const value = decoded.slice(0, dot);
  const signature = Buffer.from(decoded.slice(dot + 1), "base64");
  const expected = createHmac("sha256", secret).update(value).digest();
  return signature.length === expected.length && timingSafeEqual(signature, expected) ? value : null;
}

/** Cookies from a `Cookie` request header, by name (the first of duplicates wins). */
export function parseCookieHeader(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const equals = part.indexOf("=");
    if (equals < 1) continue;
    const name = part.slice(0, equals).trim();
    if (!cookies.has(name)) cookies.set(name, part.slice(equals + 1).trim());
  }
  return cookies;
}

/**
 * better-auth's cookie names: `better-auth.<name>`, with `__Secure-` when the site is served over https
 * (`better-auth-passkey` is the passkey plugin's challenge cookie).
 */
export function authCookieName(name: "session_token" | "session_data" | "dont_remember" | "state" | "two_factor" | "trust_device" | "better-auth-passkey", publicUrl: string): string {
  return `${publicUrl.startsWith("https:") ? "__Secure-" : ""}better-auth.${name}`;
}

/** Browsers keep cookies of about 4 KB; Safari's limit, the lowest, is 4093 characters. */
export const MAX_COOKIE_VALUE_LENGTH = 4093;

/** What better-auth's session_data cookie cache holds: get-session's answer, as of `updatedAt`. */
export interface SessionCache {
  session: Record<string, unknown> & { token?: unknown };
  user: Record<string, unknown>;
  updatedAt: number;
  version: string;
}

const sign = (payload: string, secret: string) => createHmac("sha256", secret).update(payload).digest("base64url");

/**
 * better-auth's compact session_data value: base64url JSON of the payload, its expiry and an
 * HMAC over both. Null when it would not fit in one cookie (better-auth would chunk it; Tollgate
 * just does without the cache then).
 */
export function encodeSessionCache(cache: SessionCache, secret: string, maxAgeSeconds: number): string | null {
  const expiresAt = Date.now() + maxAgeSeconds * 1000;
  const signature = sign(JSON.stringify({ ...cache, expiresAt }), secret);
  const value = Buffer.from(JSON.stringify({ session: cache, expiresAt, signature })).toString("base64url");
  return value.length <= MAX_COOKIE_VALUE_LENGTH ? value : null;
}

/** The cache in a session_data cookie, or null if it is malformed, forged or expired. */
export function decodeSessionCache(value: string, secret: string): SessionCache | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const { session, expiresAt, signature } = parsed as { session?: SessionCache; expiresAt?: unknown; signature?: unknown };
  if (!session || typeof expiresAt !== "number" || typeof signature !== "string" || expiresAt <= Date.now()) return null;
  const expected = Buffer.from(sign(JSON.stringify({ ...session, expiresAt }), secret));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? session : null;
}
