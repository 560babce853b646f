import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { defineMessage } from "react-intl";
import { sellerSpaceRoute, type SellerNavigation } from "../space-route";

/** The benefits section: its screens (each its own chunk, loaded when its route is) and its entry in the seller's navigation. */
export const routes = [
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/benefits", component: lazyRouteComponent(() => import("./benefits-screen"), "BenefitsScreen") }),
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/benefits/new", component: lazyRouteComponent(() => import("./benefit-form-screen"), "NewBenefitScreen") }),
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/benefits/$id", component: lazyRouteComponent(() => import("./benefit-form-screen"), "EditBenefitScreen") }),
];

export const navigation = { to: "/$slug/benefits", label: defineMessage({ id: "seller.space.benefits", defaultMessage: "Benefits" }) } as const satisfies SellerNavigation;
