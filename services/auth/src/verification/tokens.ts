import jwt from "jsonwebtoken";
import { z } from "zod";

export const VERIFICATION_TTL_SECONDS = 3600;

const Claims = z.object({
  email: z.email(),
  userId: z.string(),
  /** A change of address: `email` is the current one, and the link was mailed to `updateTo`. */
  updateTo: z.email().optional(),
  requestType: z.literal("change-email-verification").optional(),
});
export type VerificationClaims = z.infer<typeof Claims>;

/** better-auth's verification token: an HS256 JWT for an hour, with the address (and the new one, for a change). */
export function signVerificationToken(secret: string, claims: VerificationClaims): string {
  return jwt.sign(claims, secret, { algorithm: "HS256", expiresIn: VERIFICATION_TTL_SECONDS });
}

export function readVerificationToken(secret: string, token: string): VerificationClaims | "TOKEN_EXPIRED" | "INVALID_TOKEN" {
  try {
    const claims = Claims.safeParse(jwt.verify(token, secret, { algorithms: ["HS256"] }));
    return claims.success ? claims.data : "INVALID_TOKEN";
  } catch (error) {
    return error instanceof jwt.TokenExpiredError ? "TOKEN_EXPIRED" : "INVALID_TOKEN";
  }
}
