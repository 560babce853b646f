import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { defineMessage } from "react-intl";
import { sellerSpaceRoute, type SellerNavigation } from "../space-route";

/** The discounts section: its screens (each its own chunk, loaded when its route is) and its entry in the seller's navigation. */
export const routes = [
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/discounts", component: lazyRouteComponent(() => import("./discounts-screen"), "DiscountsScreen") }),
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/discounts/new", component: lazyRouteComponent(() => import("./discount-form-screen"), "NewDiscountScreen") }),
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/discounts/$id", component: lazyRouteComponent(() => import("./discount-form-screen"), "EditDiscountScreen") }),
];

export const navigation = { to: "/$slug/discounts", label: defineMessage({ id: "seller.space.discounts", defaultMessage: "Discounts" }) } as const satisfies SellerNavigation;
