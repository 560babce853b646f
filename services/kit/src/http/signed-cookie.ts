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

/** better-auth's cookie names: `better-auth.<name>`, with `__Secure-` when the site is served over https. */
export function authCookieName(name: "session_token" | "session_data" | "dont_remember", publicUrl: string): string {
  return `${publicUrl.startsWith("https:") ? "__Secure-" : ""}better-auth.${name}`;
}
