import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { defineMessage } from "react-intl";
import { sellerSpaceRoute, type SellerNavigation } from "../space-route";

/** The subscriptions section: its screens (each its own chunk, loaded when its route is) and its entry in the seller's navigation. */
export const routes = [
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/subscriptions", component: lazyRouteComponent(() => import("./subscriptions-screen"), "SubscriptionsScreen") }),
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/subscriptions/$id", component: lazyRouteComponent(() => import("./subscription-screen"), "SubscriptionScreen") }),
];

export const navigation = { to: "/$slug/subscriptions", label: defineMessage({ id: "seller.space.subscriptions", defaultMessage: "Subscriptions" }) } as const satisfies SellerNavigation;
