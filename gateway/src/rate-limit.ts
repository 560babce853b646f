import type { RequestHandler } from "express";
import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { HttpError, polarErrors, type Logger } from "@tollgate/kit";
import { rateLimitSubject } from "./client-address.js";
import { matchesPrefix, routedPath } from "./routes.js";

interface Rule {
  name: string;
  points: number;
  durationSeconds: number;
  /** Which part of the request a counter is kept for: the path, or the client as a whole. */
  per: "ip-and-path" | "ip";
  /** Given the path as the services route it (see {@link routedPath}). */
  applies(path: string): boolean;
}

const AUTH_PREFIX = "/api/auth";
const authPath = (path: string) => (matchesPrefix(path, AUTH_PREFIX) ? path.slice(AUTH_PREFIX.length) || "/" : null);

/**
 * better-auth's defaults for /api/auth, most specific first; the customer's software's license-key
 * checks, which carry no token and guess at keys, per address and call; the portal's sign-in codes;
 * and a per-client budget for Polar's /v1 (whose paths carry ids, so a per-path counter would not
 * limit anything).
 */
const RULES: Rule[] = [
  // better-auth's two-factor, magic-link and e-mail OTP plugins declare their own limits, ahead of the core's.
  {
    name: "auth-two-factor",
    points: 3,
    durationSeconds: 10,
    per: "ip-and-path",
    applies: (path) => authPath(path)?.startsWith("/two-factor/") ?? false,
  },
  {
    name: "auth-magic-link",
    points: 5,
    durationSeconds: 60,
    per: "ip-and-path",
    applies: (path) => /^\/(sign-in\/magic-link|magic-link\/verify)$/.test(authPath(path) ?? ""),
  },
  {
    name: "auth-code-mail",
    points: 3,
    durationSeconds: 60,
    per: "ip-and-path",
    applies: (path) => /^\/(email-otp\/send-verification-otp|email-otp\/request-password-reset|forget-password\/email-otp)$/.test(authPath(path) ?? ""),
  },
  {
    name: "auth-code-tries",
    points: 3,
    durationSeconds: 60,
    per: "ip-and-path",
    applies: (path) => /^\/(sign-in\/email-otp|email-otp\/(check-verification-otp|verify-email|reset-password))$/.test(authPath(path) ?? ""),
  },
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
  {
    name: "license-keys",
    points: 30,
    durationSeconds: 60,
    per: "ip-and-path",
    applies: (path) => /^\/v1\/customer-portal\/license-keys\/(validate|activate|deactivate)$/.test(path),
  },
  // A portal sign-in code is mailed, so asking is limited as auth's mails are; trying codes is limited
  // so that guessing one (32⁸ of them, each alive for minutes) stays out of reach.
  {
    name: "portal-code-mail",
    points: 3,
    durationSeconds: 60,
    per: "ip-and-path",
    applies: (path) => path === "/v1/customer-portal/customer-session/request",
  },
  {
    name: "portal-code-tries",
    points: 10,
    durationSeconds: 60,
    per: "ip-and-path",
    applies: (path) => path === "/v1/customer-portal/customer-session/authenticate",
  },
  { name: "api", points: 300, durationSeconds: 10, per: "ip", applies: (path) => matchesPrefix(path, "/v1") },
];

const TOO_MANY = "Too many requests. Please try again later.";

/** A request over its limit: when to come back, and whether better-auth's bare `{message}` answers it. */
export interface Refusal {
  retryAfterSeconds: number;
  auth: boolean;
}

/**
 * Rate limits in Redis, so every gateway replica counts against the same numbers, with atomic
 * increments. While Redis is down each replica counts in its own memory instead, so the limits hold
 * per replica (a client spread over N replicas gets N times the budget) and guessing passwords stays
 * slow, without the outage taking the site down with it. Should both fail, the request passes.
 */
export class RateLimits {
  private readonly limited: { rule: Rule; limiter: RateLimiterRedis }[];

  constructor(
    redis: Redis,
    private readonly logger: Logger,
  ) {
    this.limited = RULES.map((rule) => ({
      rule,
      limiter: new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `rate:${rule.name}`,
        points: rule.points,
        duration: rule.durationSeconds,
        // Counted here at once while Redis is not connected, rather than after a command failed.
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: `rate:${rule.name}`, points: rule.points, duration: rule.durationSeconds }),
      }),
    }));
  }

  /** Counts a request to `requestPath` from `clientIp`; a refusal when it is one too many. */
  async consume(requestPath: string, clientIp: string): Promise<Refusal | null> {
    const path = routedPath(requestPath);
    const match = this.limited.find(({ rule }) => rule.applies(path));
    if (!match) return null;
    const { rule, limiter } = match;
    const subject = rateLimitSubject(clientIp);
    try {
      await limiter.consume(rule.per === "ip" ? subject : `${subject}|${path}`);
      return null;
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) {
        this.logger.warn({ err: error }, "rate limiting unavailable; letting the request through");
        return null;
      }
      return { retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)), auth: authPath(path) !== null };
    }
  }
}

/** The headers of a 429 (better-auth's X-Retry-After too) and better-auth's body, for answers made outside express. */
export function refusalHeaders(refusal: Refusal): Record<string, string> {
  return { "retry-after": String(refusal.retryAfterSeconds), "x-retry-after": String(refusal.retryAfterSeconds) };
}
export const AUTH_REFUSAL_BODY = { message: TOO_MANY };

/** Over the limit: 429 with Retry-After, in better-auth's bare `{message}` or Polar's `{error, detail}`. */
export function rateLimit(limits: RateLimits): RequestHandler {
  return async (req, res, next) => {
    const refusal = await limits.consume(req.path, req.ip ?? "");
    if (!refusal) return next();
    res.set(refusalHeaders(refusal));
    if (refusal.auth) res.status(429).json(AUTH_REFUSAL_BODY);
    else next(new HttpError(429, polarErrors.codes.too_many_requests, TOO_MANY));
  };
}
