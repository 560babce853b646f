import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { defineMessage } from "react-intl";
import { sellerSpaceRoute, type SellerNavigation } from "../space-route";

/** The dashboard: its screens (each its own chunk, loaded when its route is) and its entry in the seller's navigation. */
export const routes = [
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/", component: lazyRouteComponent(() => import("./dashboard-screen"), "DashboardScreen") }),
];

export const navigation = { to: "/$slug", label: defineMessage({ id: "seller.space.dashboard", defaultMessage: "Dashboard" }), exact: true } as const satisfies SellerNavigation;
