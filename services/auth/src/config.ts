import { env, type ServiceConfig } from "@tollgate/kit";
import { z } from "zod";
import { socialEnv } from "./social/settings.js";

/** What the auth service reads on top of every service's settings. */
export const authEnv = z.object({
  /** Signs session cookies and e-mailed tokens; the gateway holds the same secret to verify cookies. */
  AUTH_SECRET: env.secret(32),
  /** The site's public address: links in e-mails, cookie security, the always-trusted origin. */
  PUBLIC_URL: env.url(["http", "https"], "http://localhost:3000"),
  /** Further origins allowed as callback URLs and as the Origin of cookie-carrying requests. */
  TRUSTED_ORIGINS: env.list("a comma-separated list of origins"),
  BCRYPT_COST: env.integer("a bcrypt cost between 4 and 15", 11, 4, 15),
  PASSWORD_MIN_LENGTH: env.integer("a length between 1 and 128", 8, 1, 128),
  PASSWORD_MAX_LENGTH: env.integer("a length between 8 and 4096", 128, 8, 4096),
  REQUIRE_EMAIL_VERIFICATION: env.boolean(false),
  /** Users treated as admins whatever their role; how the very first admin can exist. */
  ADMIN_USER_IDS: env.list("a comma-separated list of user ids"),
  SESSION_EXPIRES_IN_SECONDS: env.integer("a number of seconds", 7 * 24 * 3600, 60),
  SESSION_UPDATE_AGE_SECONDS: env.integer("a number of seconds", 24 * 3600, 0),
  SESSION_FRESH_AGE_SECONDS: env.integer("a number of seconds", 24 * 3600, 0),
  /**
   * better-auth's optional session_data cookie: get-session's answer signed into a cookie, which the
   * gateway serves without any lookup while it lasts (a revoked session may show for that long).
   */
  SESSION_COOKIE_CACHE: env.boolean(false),
  SESSION_COOKIE_CACHE_MAX_AGE_SECONDS: env.integer("a number of seconds", 60, 1, 3600),
  /** Outgoing mail server; without it mail is printed on the service's console (outside production). */
  SMTP_URL: env.url(["smtp", "smtps"]).optional(),
  /**
   * The web mailbox (GET /api/auth/dev/mailbox) of what was sent, for platform admins; only on request and
   * only while PUBLIC_URL is on this machine, since the links it shows open accounts.
   */
  DEV_MAILBOX: env.boolean(false),
  MAIL_FROM: env.string("a sender such as Tollgate <no-reply@example.com>", "Tollgate <no-reply@localhost>"),
  /** The name authenticator apps show beside a Tollgate account's codes (the otpauth URI's issuer). */
  TWO_FACTOR_ISSUER: env.string("the name authenticator apps show for this site", "Tollgate"),
  /** Deleting an account waits for a link e-mailed to its owner. */
  DELETE_USER_EMAIL_CONFIRMATION: env.boolean(false),
  /** The site's name that authenticators show beside a passkey; its relying-party id is PUBLIC_URL's host. */
  PASSKEY_RP_NAME: env.string("a name such as Tollgate", "Tollgate"),
  /**
   * Every new API key's rate limit (better-auth's api-key defaults): at most this many requests, and a
   * window that starts again once this many milliseconds pass without one.
   */
  API_KEY_RATE_LIMIT_MAX: env.integer("a number of requests", 10, 1),
  API_KEY_RATE_LIMIT_WINDOW_MS: env.integer("a number of milliseconds", 24 * 3600 * 1000, 1),
  ...socialEnv,
});

export type AuthEnv = typeof authEnv;
export type AuthConfig = ServiceConfig<AuthEnv>;
