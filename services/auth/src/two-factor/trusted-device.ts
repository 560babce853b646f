import { createHmac, timingSafeEqual } from "node:crypto";
import type { Request, Response } from "express";
import { TRUSTED_DEVICE_HEADER } from "@tollgate/proto";
import type { Knex } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { consumeVerification, createVerification } from "../verification/verifications.sql.js";

/** better-auth's trustDeviceMaxAge: a trusted browser skips the second factor for 30 days from its last sign-in. */
const TRUSTED_DEVICE_SECONDS = 30 * 24 * 3600;

/** The cookie's proof that the record it names was made for this user: the record alone could be replayed for another. */
const proofOf = (secret: string, userId: string, record: string) => createHmac("sha256", secret).update(`${userId}!${record}`).digest("base64url");

/** Trusts this browser for the user: a record the server can revoke, named in a cookie (`proof!record`, as better-auth writes it). */
export async function trustDevice(auth: Pick<Parts, "config" | "cookies">, db: Knex, res: Response, userId: string): Promise<void> {
  const record = await createVerification(db, "trusted-device", userId, TRUSTED_DEVICE_SECONDS, 32);
  auth.cookies.issueTrustedDevice(res, `${proofOf(auth.config.AUTH_SECRET, userId, record)}!${record}`, TRUSTED_DEVICE_SECONDS);
}

/** The record a trusted-device cookie names, if the cookie was made for this user; null otherwise. */
function recordFor(secret: string, userId: string, cookie: string): string | null {
  const [proof = "", record = ""] = cookie.split("!");
  const expected = Buffer.from(proofOf(secret, userId, record));
  const given = Buffer.from(proof);
  return record && expected.length === given.length && timingSafeEqual(expected, given) ? record : null;
}

/**
 * Whether this browser is trusted by the user signing in. Trust is used up and given anew, so the 30 days
 * start again and a copied cookie works once; a cookie that does not hold is cleared.
 */
export async function signInOnTrustedDevice(auth: Pick<Parts, "config" | "cookies" | "db">, req: Request, res: Response, userId: string): Promise<boolean> {
  const cookie = req.get(TRUSTED_DEVICE_HEADER);
  if (!cookie) return false;
  const record = recordFor(auth.config.AUTH_SECRET, userId, cookie);
  if (record && (await consumeVerification(auth.db, "trusted-device", record)) === userId) {
    await trustDevice(auth, auth.db, res, userId);
    return true;
  }
  auth.cookies.clearTrustedDevice(res);
  return false;
}

/** Turning two-factor off ends this browser's trust too, as better-auth does. */
export async function forgetTrustedDevice(auth: Pick<Parts, "config" | "cookies">, db: Knex, req: Request, res: Response, userId: string): Promise<void> {
  const cookie = req.get(TRUSTED_DEVICE_HEADER);
  if (!cookie) return;
  const record = recordFor(auth.config.AUTH_SECRET, userId, cookie);
  if (record) await consumeVerification(db, "trusted-device", record);
  auth.cookies.clearTrustedDevice(res);
}
