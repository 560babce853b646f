import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { defineMessage } from "react-intl";
import { sellerSpaceRoute, type SellerNavigation } from "../space-route";

/** The webhooks section: its screens (each its own chunk, loaded when its route is) and its entry in the seller's navigation. */
export const routes = [
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/webhooks", component: lazyRouteComponent(() => import("./endpoints-screen"), "WebhookEndpointsScreen") }),
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/webhooks/$endpointId", component: lazyRouteComponent(() => import("./endpoint-screen"), "WebhookEndpointScreen") }),
];

export const navigation = { to: "/$slug/webhooks", label: defineMessage({ id: "seller.space.webhooks", defaultMessage: "Webhooks" }) } as const satisfies SellerNavigation;
