import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { defineMessage } from "react-intl";
import { sellerSpaceRoute, type SellerNavigation } from "../space-route";

/** The products section: its screens (each its own chunk, loaded when its route is) and its entry in the seller's navigation. */
export const routes = [
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/products", component: lazyRouteComponent(() => import("./products-screen"), "ProductsScreen") }),
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/products/new", component: lazyRouteComponent(() => import("./new-product-screen"), "NewProductScreen") }),
  createRoute({ getParentRoute: () => sellerSpaceRoute, path: "/products/$productId", component: lazyRouteComponent(() => import("./product-screen"), "ProductScreen") }),
];

export const navigation = { to: "/$slug/products", label: defineMessage({ id: "seller.space.products", defaultMessage: "Products" }) } as const satisfies SellerNavigation;
