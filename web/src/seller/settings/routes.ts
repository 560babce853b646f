import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { defineMessage } from "react-intl";
import { sellerSpaceRoute, type SellerNavigation } from "../space-route";
import { settingsTabSearch } from "./tabs";

/** The seller's settings: its screens (each its own chunk, loaded when its route is) and its entry in the seller's navigation. */
export const routes = [
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/settings", component: lazyRouteComponent(() => import("./settings-screen"), "SettingsScreen"), validateSearch: settingsTabSearch }),
];

export const navigation = { to: "/$slug/settings", label: defineMessage({ id: "seller.space.settings", defaultMessage: "Settings" }) } as const satisfies SellerNavigation;
