import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { defineMessage } from "react-intl";
import { sellerSpaceRoute, type SellerNavigation } from "../space-route";

/** The checkout links section: its screens (each its own chunk, loaded when its route is) and its entry in the seller's navigation. */
export const routes = [
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/checkout-links", component: lazyRouteComponent(() => import("./checkout-links-screen"), "CheckoutLinksScreen") }),
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/checkout-links/new", component: lazyRouteComponent(() => import("./checkout-link-screens"), "NewCheckoutLinkScreen") }),
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/checkout-links/$id", component: lazyRouteComponent(() => import("./checkout-link-screens"), "EditCheckoutLinkScreen") }),
];

export const navigation = { to: "/$slug/checkout-links", label: defineMessage({ id: "seller.space.checkoutLinks", defaultMessage: "Checkout links" }) } as const satisfies SellerNavigation;
