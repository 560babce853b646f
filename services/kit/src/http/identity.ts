import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import jwt from "jsonwebtoken";
import { IDENTITY_AUDIENCE, IDENTITY_HEADER, IDENTITY_ISSUER, IDENTITY_TTL_SECONDS, IdentityClaims } from "@tollgate/proto";
import type { RequestHandler } from "express";
import { derivedVaultKey } from "../crypto/secret-vault.js";
import { HttpError, type ErrorContract } from "./errors.js";

declare module "express-serve-static-core" {
  interface Request {
    /** Who is calling, as resolved by the gateway; set on every request past the identity check. */
    identity?: IdentityClaims;
    /**
     * The caller's address as the gateway saw it (believing only its trusted proxies), from the signed
     * token: a service never takes X-Forwarded-For from whoever reaches it.
     */
    clientAddress?: string;
  }
}

/**
 * Identity tokens are ES256: only the gateway holds the private key and can vouch for a caller; services
 * hold public keys, so no service, and nobody holding a service's settings, can mint an identity.
 */
const ALGORITHM = "ES256";

/** A key as settings give it: PEM, or the base64 of its DER (PKCS#8 for the private key, SPKI for public ones). */
const derOrPem = (text: string) => (text.includes("-----BEGIN") ? { key: text, format: "pem" as const } : { key: Buffer.from(text, "base64"), format: "der" as const });

function isP256(key: KeyObject): boolean {
  return key.asymmetricKeyType === "ec" && key.asymmetricKeyDetails?.namedCurve === "prime256v1";
}

/** A P-256 private key from its setting; throws with a plain reason. */
export function parseSigningKey(text: string): KeyObject {
  const source = derOrPem(text.trim());
  const key = createPrivateKey(source.format === "der" ? { ...source, type: "pkcs8" } : source);
  if (!isP256(key)) throw new Error("not a P-256 (prime256v1) EC private key");
  return key;
}

/** A P-256 public key from its setting; throws with a plain reason. */
export function parseVerifyKey(text: string): KeyObject {
  const source = derOrPem(text.trim());
  const key = createPublicKey(source.format === "der" ? { ...source, type: "spki" } : source);
  if (!isP256(key)) throw new Error("not a P-256 (prime256v1) EC public key");
  return key;
}

/** Names a public key in the token's header, so services holding several (during a rotation) pick the right one. */
const keyIdOf = (publicKey: KeyObject) => createHash("sha256").update(publicKey.export({ format: "der", type: "spki" })).digest("base64url").slice(0, 16);

/** A fresh key pair as settings hold it (base64 DER): IDENTITY_SIGNING_KEY for the gateway, IDENTITY_VERIFY_KEYS for services. */
export function generateIdentityKeys(): { signingKey: string; verifyKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  return {
    signingKey: privateKey.export({ format: "der", type: "pkcs8" }).toString("base64"),
    verifyKey: publicKey.export({ format: "der", type: "spki" }).toString("base64"),
  };
}

/** The public half of a signing key, as IDENTITY_VERIFY_KEYS holds it. */
export const verifyKeyOf = (signingKey: string) => createPublicKey(parseSigningKey(signingKey)).export({ format: "der", type: "spki" }).toString("base64");

/**
 * A 32-byte key for `purpose` (HKDF over the signing key's private scalar): a further secret that only
 * the holder of the signing key has, whatever form the setting gives the key in, with no setting of its own.
 */
export function keyDerivedFromSigningKey(signingKey: string, purpose: string): Buffer {
  const { d } = parseSigningKey(signingKey).export({ format: "jwk" });
  if (!d) throw new Error("the signing key has no private part");
  return derivedVaultKey(d, purpose);
}

/**
 * Signing and verifying ES256 cost a tenth of a millisecond or more each, on every forwarded request.
 * A caller's token is reused while it has at least half its life left, and a service remembers the
 * tokens it has verified until they expire: the same bytes always verify the same way.
 */
const TOKEN_REUSE_SECONDS = IDENTITY_TTL_SECONDS / 2;
const REMEMBERED_TOKENS = 10_000;

/** A map that forgets its oldest entries past `limit`. */
function remember<Value>(cache: Map<string, Value>, key: string, value: Value): void {
  cache.set(key, value);
  if (cache.size > REMEMBERED_TOKENS) cache.delete(cache.keys().next().value as string);
}

export interface IdentitySigner {
  /** A token vouching for `claims`, with the client's address where the gateway knows it. */
  sign(claims: IdentityClaims, clientAddress?: string): string;
}

/** Used by the gateway for every request it forwards. */
export function identitySigner(signingKey: string): IdentitySigner {
  const key = parseSigningKey(signingKey);
  const keyid = keyIdOf(createPublicKey(key));
  const signed = new Map<string, { token: string; reuseUntil: number }>();
  return {
    sign(claims, clientAddress) {
      const payload = clientAddress ? { ...claims, ip: clientAddress } : claims;
      const cacheKey = JSON.stringify(payload);
      const now = Date.now();
      const reusable = signed.get(cacheKey);
      if (reusable && reusable.reuseUntil > now) return reusable.token;
      const token = jwt.sign(payload, key, { algorithm: ALGORITHM, keyid, issuer: IDENTITY_ISSUER, audience: IDENTITY_AUDIENCE, expiresIn: IDENTITY_TTL_SECONDS });
      remember(signed, cacheKey, { token, reuseUntil: now + TOKEN_REUSE_SECONDS * 1000 });
      return token;
    },
  };
}

export interface VerifiedIdentity {
  claims: IdentityClaims;
  clientAddress: string | null;
}

export interface IdentityVerifier {
  /** The identity a token vouches for; null unless the gateway signed it, for us, and recently. */
  verify(token: string): VerifiedIdentity | null;
}

/** Used by every service: accepts tokens signed with the private half of any of `verifyKeys` (more than one while rotating). */
export function identityVerifier(verifyKeys: string[]): IdentityVerifier {
  const keys = new Map(verifyKeys.map((text) => parseVerifyKey(text)).map((key) => [keyIdOf(key), key]));
  const verified = new Map<string, { identity: VerifiedIdentity; expiresAt: number }>();
  const check = (token: string): { identity: VerifiedIdentity; expiresAt: number } | null => {
    try {
      const kid = jwt.decode(token, { complete: true })?.header.kid;
      const key = kid === undefined ? undefined : keys.get(kid);
      if (!key) return null;
      const payload = jwt.verify(token, key, { algorithms: [ALGORITHM], issuer: IDENTITY_ISSUER, audience: IDENTITY_AUDIENCE });
      const claims = IdentityClaims.safeParse(payload);
      if (!claims.success || typeof payload !== "object" || payload.exp === undefined) return null;
      const ip = typeof payload.ip === "string" ? payload.ip : null;
      return { identity: { claims: claims.data, clientAddress: ip }, expiresAt: payload.exp * 1000 };
    } catch {
      return null;
    }
  };
  return {
    verify(token) {
      const known = verified.get(token);
      if (known) return known.expiresAt > Date.now() ? known.identity : null;
      const checked = check(token);
      if (!checked) return null;
      remember(verified, token, checked);
      return checked.identity;
    },
  };
}

/**
 * Services are reachable only through the gateway, and this is how they know: a request without a
 * valid identity token from it is refused before any handler runs.
 */
export function requireIdentity(verifier: IdentityVerifier, errors: ErrorContract): RequestHandler {
  return (req, _res, next) => {
    const token = req.get(IDENTITY_HEADER);
    const verified = token ? verifier.verify(token) : null;
    if (!verified) {
      next(new HttpError(401, errors.codes.unauthorized, "requests must come through the Tollgate gateway"));
      return;
    }
    req.identity = verified.claims;
    if (verified.clientAddress) req.clientAddress = verified.clientAddress;
    next();
  };
}
