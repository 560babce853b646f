import type { Request, Response } from "express";
import { z } from "zod";
import { PASSKEY_CHALLENGE_HEADER } from "@tollgate/proto";
import type { Parts } from "../parts.js";
import { authError } from "../http/errors.js";
import { consumeVerification, createVerification } from "../verification/verifications.sql.js";

/** A challenge must be answered within 5 minutes, as better-auth's plugin allows. */
const CHALLENGE_LIFETIME_SECONDS = 300;

const Ceremony = z.object({
  type: z.enum(["registration", "authentication"]),
  expectedChallenge: z.string(),
  /** Whose passkey is being registered; for authentication, empty when no one was signed in (any of the site's passkeys may answer). */
  userId: z.string(),
});
type Ceremony = z.output<typeof Ceremony>;

/** Keeps a ceremony's challenge (as a single-use verification) and gives the browser the cookie that names it. */
export async function beginCeremony(auth: Parts, res: Response, ceremony: Ceremony): Promise<void> {
  const token = await createVerification(auth.db, "passkey-challenge", JSON.stringify(ceremony), CHALLENGE_LIFETIME_SECONDS, 32);
  auth.cookies.issuePasskeyChallenge(res, token, CHALLENGE_LIFETIME_SECONDS);
}

/**
 * Uses up the challenge this browser was given for a ceremony of `type`: it works once, within its
 * lifetime, for the ceremony it was given for; anything else is better-auth's CHALLENGE_NOT_FOUND.
 */
export async function takeChallenge(auth: Parts, req: Request, type: Ceremony["type"]): Promise<Ceremony> {
  const token = req.get(PASSKEY_CHALLENGE_HEADER);
  const stored = token ? await consumeVerification(auth.db, "passkey-challenge", token) : null;
  const ceremony = stored === null ? null : Ceremony.safeParse(JSON.parse(stored));
  if (!ceremony?.success || ceremony.data.type !== type) throw authError(400, "CHALLENGE_NOT_FOUND");
  return ceremony.data;
}
