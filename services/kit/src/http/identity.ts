import { createSecretKey, type KeyObject } from "node:crypto";
import jwt from "jsonwebtoken";
import {
  IDENTITY_AUDIENCE,
  IDENTITY_HEADER,
  IDENTITY_ISSUER,
  IDENTITY_TTL_SECONDS,
  IdentityClaims,
} from "@tollgate/proto";
import type { RequestHandler } from "express";
import { HttpError, type ErrorContract } from "./errors.js";

declare module "express-serve-static-core" {
  interface Request {
    /** Who is calling, as resolved by the gateway; set on every request past the identity check. */
    identity?: IdentityClaims;
  }
}

const keys = new Map<string, KeyObject>();

/**
 * The secret as a key object, made once: given a string, jsonwebtoken first tries to parse it as a
 * PEM key on every call, which cost milliseconds per request on the gateway and every service.
 */
function keyFor(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, "utf8"));
    keys.set(secret, key);
  }
  return key;
}

/** Used by the gateway for every request it forwards. */
export function signIdentity(claims: IdentityClaims, secret: string): string {
  return jwt.sign(claims, keyFor(secret), {
    algorithm: "HS256",
    issuer: IDENTITY_ISSUER,
    audience: IDENTITY_AUDIENCE,
    expiresIn: IDENTITY_TTL_SECONDS,
  });
}

export function verifyIdentity(token: string, secret: string): IdentityClaims | null {
  try {
    const payload = jwt.verify(token, keyFor(secret), {
      algorithms: ["HS256"],
      issuer: IDENTITY_ISSUER,
      audience: IDENTITY_AUDIENCE,
    });
    const claims = IdentityClaims.safeParse(payload);
    return claims.success ? claims.data : null;
  } catch {
    return null;
  }
}

/**
 * Services are reachable only through the gateway, and this is how they know: a request without a
 * valid identity token from it is refused before any handler runs.
 */
export function requireIdentity(secret: string, errors: ErrorContract): RequestHandler {
  return (req, _res, next) => {
    const token = req.get(IDENTITY_HEADER);
    const identity = token ? verifyIdentity(token, secret) : null;
    if (!identity) {
      next(new HttpError(401, errors.codes.unauthorized, "requests must come through the Tollgate gateway"));
      return;
    }
    req.identity = identity;
    next();
  };
}
