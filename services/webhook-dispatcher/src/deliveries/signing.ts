import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";

/** A new signing secret as Standard Webhooks writes them: `whsec_` and the base64 of 32 random bytes. */
export const newSecret = () => `${PREFIX}${randomBytes(32).toString("base64")}`;

/**
 * The `webhook-signature` header: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` for each secret,
 * space-separated (the new and, during a rotation, the old), the key being the decoded secret.
 */
export function signatureHeader(id: string, timestamp: number, body: string, secrets: string[]): string {
  const content = `${id}.${timestamp}.${body}`;
  return secrets.map((secret) => `v1,${createHmac("sha256", Buffer.from(secret.slice(PREFIX.length), "base64")).update(content).digest("base64")}`).join(" ");
}
