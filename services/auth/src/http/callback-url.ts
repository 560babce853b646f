import { trustedOrigins } from "@tollgate/kit";
import type { AuthConfig } from "../config.js";
import { authError, type AuthErrorCode } from "./errors.js";

/** Decodes percent-escapes until nothing changes, so `%252e` cannot hide a dot from the checks. */
function fullyDecoded(url: string): string {
  let current = url;
  for (let round = 0; round < 5; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return current;
    }
    if (next === current) return current;
    current = next;
  }
  return current;
}


/**
 * A redirect target must stay on a trusted site: a path on this one, or an absolute URL on a
 * trusted origin. Paths with dot segments, doubled or back slashes (also when percent-encoded)
 * are refused, since a browser or proxy may normalise them into another host (`/..//evil`).
 */
export function isTrustedRedirect(config: AuthConfig, url: string): boolean {
  const decoded = fullyDecoded(url);
  const hasControlCharacter = [...decoded].some((char) => char.charCodeAt(0) < 0x20);
  if (hasControlCharacter || decoded.includes("\\") || /(^|\/)\.\.?(\/|$)/.test(decoded)) return false;
  if (decoded.startsWith("/")) return !decoded.startsWith("//");
  try {
    const parsed = new URL(url);
    return (parsed.protocol === "https:" || parsed.protocol === "http:") && trustedOrigins(config.PUBLIC_URL, config.TRUSTED_ORIGINS).has(parsed.origin);
  } catch {
    return false;
  }
}

export function assertTrustedRedirect(config: AuthConfig, url: string | undefined, code: AuthErrorCode = "INVALID_CALLBACK_URL"): void {
  if (url !== undefined && !isTrustedRedirect(config, url)) throw authError(403, code);
}

/**
 * `url` with `params` added to its query (after any it has, before its fragment), as better-auth adds
 * `error=` to a callback. A path stays a path.
 */
export function withQuery(url: string, params: Record<string, string>): string {
  const target = new URL(url, "http://placeholder");
  const added = new URLSearchParams(params).toString();
  target.search = target.search ? `${target.search}${target.search.endsWith("&") ? "" : "&"}${added}` : added;
  return url.startsWith("/") ? target.href.slice(target.origin.length) : target.href;
}
