import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { defineMessage } from "react-intl";
import { sellerSpaceRoute, type SellerNavigation } from "../space-route";

/** The organization's API keys (better-auth's, for /api/auth), beside its access tokens for /v1. */
export const routes = [
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/api-keys", component: lazyRouteComponent(() => import("./api-keys-screen"), "ApiKeysScreen") }),
];

export const navigation = { to: "/$slug/api-keys", label: defineMessage({ id: "seller.space.apiKeys", defaultMessage: "API keys" }) } as const satisfies SellerNavigation;
