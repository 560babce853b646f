import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { defineMessage } from "react-intl";
import { sellerSpaceRoute, type SellerNavigation } from "../space-route";

/** The custom fields section: its screens (each its own chunk, loaded when its route is) and its entry in the seller's navigation. */
export const routes = [
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/custom-fields", component: lazyRouteComponent(() => import("./custom-fields-screen"), "CustomFieldsScreen") }),
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/custom-fields/new", component: lazyRouteComponent(() => import("./custom-field-form-screen"), "NewCustomFieldScreen") }),
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/custom-fields/$id", component: lazyRouteComponent(() => import("./custom-field-form-screen"), "EditCustomFieldScreen") }),
];

export const navigation = { to: "/$slug/custom-fields", label: defineMessage({ id: "seller.space.customFields", defaultMessage: "Custom fields" }) } as const satisfies SellerNavigation;
