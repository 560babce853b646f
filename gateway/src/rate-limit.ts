import type { Request, RequestHandler } from "express";
import type { Redis } from "ioredis";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { HttpError, polarErrors, type Logger } from "@tollgate/kit";
import { matchesPrefix } from "./routes.js";

interface Rule {
  name: string;
  points: number;
  durationSeconds: number;
  /** Which part of the request a counter is kept for: the path, or the client as a whole. */
  per: "ip-and-path" | "ip";
  applies(path: string): boolean;
}

const AUTH_PREFIX = "/api/auth";
const authPath = (path: string) => (matchesPrefix(path, AUTH_PREFIX) ? path.slice(AUTH_PREFIX.length) || "/" : null);

/**
 * better-auth's defaults for /api/auth, most specific first, and a per-client budget for Polar's
 * /v1 (whose paths carry ids, so a per-path counter would not limit anything).
 */
const RULES: Rule[] = [
  {
    name: "auth-credentials",
    points: 3,
    durationSeconds: 10,
    per: "ip-and-path",
    applies: (path) => /^\/(sign-in|sign-up|change-password|change-email)(\/|$)/.test(authPath(path) ?? ""),
  },
  {
    name: "auth-mail",
    points: 3,
    durationSeconds: 60,
    per: "ip-and-path",
    applies: (path) => /^\/(request-password-reset|send-verification-email|forget-password)(\/|$)/.test(authPath(path) ?? ""),
  },
  { name: "auth", points: 100, durationSeconds: 10, per: "ip-and-path", applies: (path) => authPath(path) !== null },
  { name: "api", points: 300, durationSeconds: 10, per: "ip", applies: (path) => matchesPrefix(path, "/v1") },
];

const TOO_MANY = "Too many requests. Please try again later.";

/**
 * Rate limits in Redis, so every gateway replica counts against the same numbers, with atomic
 * increments. Over the limit: 429 with Retry-After (and better-auth's X-Retry-After). If Redis
 * fails, requests pass: a cache outage should not take the site down with it.
 */
export function rateLimit(redis: Redis, logger: Logger, clientIp: (req: Request) => string): RequestHandler {
  const limiters = new Map(
    RULES.map((rule) => [rule.name, new RateLimiterRedis({ storeClient: redis, keyPrefix: `rate:${rule.name}`, points: rule.points, duration: rule.durationSeconds })]),
  );
  return async (req, res, next) => {
    const rule = RULES.find((candidate) => candidate.applies(req.path));
    const limiter = rule && limiters.get(rule.name);
    if (!rule || !limiter) return next();
    const key = rule.per === "ip" ? clientIp(req) : `${clientIp(req)}|${req.path.replace(/\/+$/, "")}`;
    try {
      await limiter.consume(key);
      next();
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) {
        logger.warn({ err: error }, "rate limiting unavailable; letting the request through");
        return next();
      }
      const retryAfter = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      res.set({ "retry-after": String(retryAfter), "x-retry-after": String(retryAfter) });
      // better-auth answers with a bare {message}; Polar's API with its {error, detail}.
      if (authPath(req.path) !== null) res.status(429).json({ message: TOO_MANY });
      else next(new HttpError(429, polarErrors.codes.too_many_requests, TOO_MANY));
    }
  };
}
