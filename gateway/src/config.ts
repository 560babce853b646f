import { fileURLToPath } from "node:url";
import { commonEnv, env, loadConfig } from "@tollgate/kit";
import { z } from "zod";
import { isAddressOrRange } from "./client-address.js";

/** Comma-separated http(s) URLs, kept as written (a deployment's single URL reads back unchanged); {@link upstreamTargets} splits them. */
function upstreamUrls(fallback: string) {
  const expected = "one or more http:// or https:// URLs, comma-separated";
  return z
    .string({ error: expected })
    .refine((value) => upstreamTargets(value).length > 0 && upstreamTargets(value).every(isHttpUrl), { error: expected })
    .default(fallback);
}

/** The URLs of an upstream setting such as `AUTH_URL`. */
export const upstreamTargets = (value: string): string[] =>
  value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

function isHttpUrl(value: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** What the gateway reads; `npm start` hands it these settings and no others. */
export const gatewayEnv = z.object({
  ...commonEnv,
  /** The public entry listens on every interface; the services behind it, on loopback unless told otherwise. */
  HOST: env.string("a host name or address to listen on", "0.0.0.0"),
  PORT: env.port(3000),
  /** Signs the identity of every request forwarded to a service; only the gateway holds it. */
  IDENTITY_SIGNING_KEY: env.signingKey(),
  /** Each service's replicas, comma-separated; one URL may also be a load balancer (a Kubernetes Service) in front of several. */
  AUTH_URL: upstreamUrls("http://127.0.0.1:3001"),
  ORGANIZATION_URL: upstreamUrls("http://127.0.0.1:3002"),
  BILLING_URL: upstreamUrls("http://127.0.0.1:3003"),
  WEBHOOKS_URL: upstreamUrls("http://127.0.0.1:3004"),
  /** How a request picks among a service's replicas: the one with the fewest requests in progress, or each in turn. */
  UPSTREAM_BALANCING: env.enum(["least-in-flight", "round-robin"], "least-in-flight"),
  /** How often each replica's /readyz is asked, when a service has several; only ready ones get requests. */
  UPSTREAM_CHECK_INTERVAL_MS: env.integer("a number of milliseconds", 1_000, 100, 60_000),
  /** How long a replica that refused or reset a connection is passed over (unless a check finds it ready sooner). */
  UPSTREAM_EJECT_MS: env.integer("a number of milliseconds", 5_000, 0, 600_000),
  /**
   * A kept-alive connection to an upstream is closed instead of reused once this old, so that when one
   * URL fronts several pods, pods added by a scale-up get their share of requests within this time.
   */
  UPSTREAM_CONNECTION_MAX_AGE_MS: env.integer("a number of milliseconds", 30_000, 1_000),
  /**
   * Billing's processor, as billing is told it: with \`stripe\`, the hosted checkout's pages may load
   * Stripe.js and show Stripe's frames (their Content-Security-Policy allows js.stripe.com); with the
   * sandbox they allow nothing from elsewhere.
   */
  PAYMENT_PROCESSOR: env.enum(["sandbox", "stripe"], "sandbox"),
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
