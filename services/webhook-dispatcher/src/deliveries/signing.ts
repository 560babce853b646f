import { createHmac, randomBytes } from "node:crypto";

/** A new signing secret as Polar makes them: `polar_whs_` and 43 random URL-safe characters. */
export const newSecret = () => `polar_whs_${randomBytes(32).toString("base64url")}`;

/**
 * The `webhook-signature` header: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` for each secret,
 * space-separated (the new and, during a rotation, the old). The key is the secret's own UTF-8
 * bytes, as Polar signs: `validateEvent` from `@polar-sh/sdk/webhooks` verifies it as it is, and
 * `standardwebhooks` given the base64 of the whole secret, as Polar's documentation says.
 */
export function signatureHeader(id: string, timestamp: number, body: string, secrets: string[]): string {
  const content = `${id}.${timestamp}.${body}`;
  return secrets.map((secret) => `v1,${createHmac("sha256", Buffer.from(secret, "utf8")).update(content).digest("base64")}`).join(" ");
}
