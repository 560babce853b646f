import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { defineMessage } from "react-intl";
import { sellerSpaceRoute, type SellerNavigation } from "../space-route";

/** The customers section: its screens (each its own chunk, loaded when its route is) and its entry in the seller's navigation. */
export const routes = [
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/customers", component: lazyRouteComponent(() => import("./customers-screen"), "CustomersScreen") }),
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/customers/$customerId", component: lazyRouteComponent(() => import("./customer-screen"), "CustomerScreen") }),
];

export const navigation = { to: "/$slug/customers", label: defineMessage({ id: "seller.space.customers", defaultMessage: "Customers" }) } as const satisfies SellerNavigation;
