import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { defineMessage } from "react-intl";
import { sellerSpaceRoute, type SellerNavigation } from "../space-route";

/** The access tokens section: its screens (each its own chunk, loaded when its route is) and its entry in the seller's navigation. */
export const routes = [
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/access-tokens", component: lazyRouteComponent(() => import("./access-tokens-screen"), "AccessTokensScreen") }),
];

export const navigation = { to: "/$slug/access-tokens", label: defineMessage({ id: "seller.space.accessTokens", defaultMessage: "Access tokens" }) } as const satisfies SellerNavigation;
