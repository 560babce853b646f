import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { defineMessage } from "react-intl";
import { sellerSpaceRoute, type SellerNavigation } from "../space-route";

/** The orders section: its screens (each its own chunk, loaded when its route is) and its entry in the seller's navigation. */
export const routes = [
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/orders", component: lazyRouteComponent(() => import("./orders-screen"), "OrdersScreen") }),
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/orders/$orderId", component: lazyRouteComponent(() => import("./order-screen"), "OrderScreen") }),
];

export const navigation = { to: "/$slug/orders", label: defineMessage({ id: "seller.space.orders", defaultMessage: "Orders" }) } as const satisfies SellerNavigation;
