/** The origins a deployment trusts: its public URL's and the extra ones configured (TRUSTED_ORIGINS). */
export function trustedOrigins(publicUrl: string, extra: string[]): Set<string> {
  return new Set([publicUrl, ...extra].map((url) => new URL(url).origin));
}

/** The origin of an Origin or Referer header value, or null when it has none (`null`, garbage). */
export function originOf(header: string | undefined): string | null {
  if (!header || header === "null") return null;
  try {
    return new URL(header).origin;
  } catch {
    return null;
  }
}
