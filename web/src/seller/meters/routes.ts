import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { defineMessage } from "react-intl";
import { sellerSpaceRoute, type SellerNavigation } from "../space-route";

/** Usage billing: meters, the usage events they measure, each screen its own chunk; its entry in the seller's navigation. */
export const routes = [
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/meters", component: lazyRouteComponent(() => import("./meters-screen"), "MetersScreen") }),
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/meters/new", component: lazyRouteComponent(() => import("./meter-form-screen"), "NewMeterScreen") }),
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/meters/$meterId", component: lazyRouteComponent(() => import("./meter-screen"), "MeterScreen") }),
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/meters/$meterId/edit", component: lazyRouteComponent(() => import("./meter-form-screen"), "EditMeterScreen") }),
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/events", component: lazyRouteComponent(() => import("./events-screen"), "EventsScreen") }),
];

export const navigation = { to: "/$slug/meters", label: defineMessage({ id: "seller.space.meters", defaultMessage: "Meters" }) } as const satisfies SellerNavigation;
