import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { defineMessage } from "react-intl";
import { sellerSpaceRoute, type SellerNavigation } from "../space-route";

/** The license keys section: its screens (each its own chunk, loaded when its route is) and its entry in the seller's navigation. */
export const routes = [
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/license-keys", component: lazyRouteComponent(() => import("./license-keys-screen"), "LicenseKeysScreen") }),
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/license-keys/$id", component: lazyRouteComponent(() => import("./license-key-screen"), "LicenseKeyScreen") }),
];

export const navigation = { to: "/$slug/license-keys", label: defineMessage({ id: "seller.space.licenseKeys", defaultMessage: "License keys" }) } as const satisfies SellerNavigation;
