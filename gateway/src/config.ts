import { fileURLToPath } from "node:url";
import { commonEnv, env, loadConfig } from "@tollgate/kit";
import { z } from "zod";
import { isAddressOrRange } from "./client-address.js";

const gatewayEnv = z.object({
  ...commonEnv,
  /** The public entry listens on every interface; the services behind it, on loopback unless told otherwise. */
  HOST: env.string("a host name or address to listen on", "0.0.0.0"),
  PORT: env.port(3000),
  /** Signs the identity of every request forwarded to a service; only the gateway holds it. */
  IDENTITY_SIGNING_KEY: env.signingKey(),
  AUTH_URL: env.url(["http", "https"], "http://127.0.0.1:3001"),
  ORGANIZATION_URL: env.url(["http", "https"], "http://127.0.0.1:3002"),
  BILLING_URL: env.url(["http", "https"], "http://127.0.0.1:3003"),
  WEBHOOKS_URL: env.url(["http", "https"], "http://127.0.0.1:3004"),
  /** The built web app; the default is the workspace's `web/dist`, wherever the gateway runs from. */
  WEB_DIST: env.string("a directory path", fileURLToPath(new URL("../../web/dist", import.meta.url))),
  UPSTREAM_TIMEOUT_MS: env.integer("a number of milliseconds", 30_000, 1),
  /** The auth service's cookie-signing secret: the gateway checks session cookies itself. */
  AUTH_SECRET: env.secret(32),
  /** How long a resolved session is trusted from Redis before asking the auth service again. */
  SESSION_CACHE_TTL_SECONDS: env.integer("a number of seconds", 30, 1, 3600),
  /** The site's public address; its origin is trusted for cookie-carrying requests and CORS. */
  PUBLIC_URL: env.url(["http", "https"], "http://localhost:3000"),
  TRUSTED_ORIGINS: env.origins(),
  /** Load balancers allowed to tell the client's address in X-Forwarded-For (IPs or CIDRs); none by default. */
  TRUSTED_PROXIES: env.list("a comma-separated list of IP addresses or CIDR ranges", isAddressOrRange),
  RATE_LIMIT_ENABLED: env.boolean(true),
  /** File parts (uploaded to /v1/files/uploads/…) may be larger than other request bodies. */
  FILE_UPLOAD_BODY_LIMIT: env.bytes("100mb"),
  /** Serve get-session from better-auth's signed session_data cookie while it lasts (see the auth service). */
  SESSION_COOKIE_CACHE: env.boolean(false),
});

export type GatewayConfig = z.output<typeof gatewayEnv>;

export const loadGatewayConfig = (environment: Record<string, string | undefined> = process.env): GatewayConfig =>
  loadConfig(gatewayEnv, environment);
