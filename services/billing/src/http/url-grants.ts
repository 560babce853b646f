import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { z } from "zod";

/** What every grant carries: the second (since the epoch) it stops working. */
interface Expiring {
  expires: number;
}

/**
 * Grants a URL carries as its own credential: `<base64url JSON>.<base64url HMAC-SHA256>`, good until
 * the grant's `expires`. Each purpose signs with a key of its own drawn from the one secret, so a
 * grant made for one use is never taken for another's.
 */
export class UrlGrants<Grant extends Expiring> {
  private readonly key: Buffer;

  constructor(
    secret: string,
    purpose: string,
    private readonly schema: z.ZodType<Grant>,
  ) {
    this.key = createHash("sha256").update(`${purpose}\n${secret}`).digest();
  }

  sign(grant: Grant): string {
    const payload = Buffer.from(JSON.stringify(grant)).toString("base64url");
    return `${payload}.${this.signatureOf(payload)}`;
  }

  /** The grant in a token, if it was signed for this purpose and has not expired. */
  read(token: string): Grant | null {
    const [payload = "", signature = ""] = token.split(".");
    const expected = Buffer.from(this.signatureOf(payload), "base64url");
    const given = Buffer.from(signature, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const parsed = this.schema.safeParse(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
      return parsed.success && parsed.data.expires * 1000 > Date.now() ? parsed.data : null;
    } catch {
      return null;
    }
  }

  private signatureOf(payload: string): string {
    return createHmac("sha256", this.key).update(payload).digest("base64url");
  }
}

/** A grant's `expires` for a moment: whole seconds, as grants carry it. */
export const expiresAt = (moment: Date) => Math.floor(moment.getTime() / 1000);
