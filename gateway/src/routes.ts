import type { ErrorContract } from "@tollgate/kit";
import { betterAuthErrors, polarErrors } from "@tollgate/kit";
import { upstreamTargets, type GatewayConfig } from "./config.js";

export interface Upstream {
  name: string;
  /** Path prefix this upstream owns; the path is forwarded unchanged. */
  prefix: string;
  /** Its replicas' URLs: requests are balanced over them. */
  targets: string[];
  errors: ErrorContract;
}

/** Most specific first: the first upstream whose prefix matches a request path receives it. */
export function upstreams(config: GatewayConfig): Upstream[] {
  return [
    { name: "organization", prefix: "/api/auth/organization", targets: upstreamTargets(config.ORGANIZATION_URL), errors: betterAuthErrors },
    { name: "auth", prefix: "/api/auth", targets: upstreamTargets(config.AUTH_URL), errors: betterAuthErrors },
    { name: "webhook-dispatcher", prefix: "/v1/webhooks", targets: upstreamTargets(config.WEBHOOKS_URL), errors: polarErrors },
    { name: "billing", prefix: "/v1", targets: upstreamTargets(config.BILLING_URL), errors: polarErrors },
  ];
}

export function matchesPrefix(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * A path as the services' routers match it: they ignore case and repeated or trailing slashes, so
 * anything keyed or checked by path here must too, or `/SIGN-IN//email` would be a path of its own.
 */
export function routedPath(path: string): string {
  return path.toLowerCase().replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1");
}
