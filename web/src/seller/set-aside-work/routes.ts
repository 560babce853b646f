import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { defineMessage } from "react-intl";
import { sellerSpaceRoute, type SellerNavigation } from "../space-route";

/** The set-aside work section: its screens (each its own chunk, loaded when its route is) and its entry in the seller's navigation. */
export const routes = [
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/set-aside-work", component: lazyRouteComponent(() => import("./set-aside-work-screen"), "SetAsideWorkScreen") }),
];

export const navigation = { to: "/$slug/set-aside-work", label: defineMessage({ id: "seller.space.setAside", defaultMessage: "Needs attention" }) } as const satisfies SellerNavigation;
