import { queryOptions } from "@tanstack/react-query";
import { listCheckoutLinks } from "../checkout-links/checkout-links-api";
import { checkoutLinkKeys } from "../checkout-links/queries";
import { listOrders } from "../orders/api";
import { orderKeys } from "../orders/queries";
import { listProducts } from "../products/products-api";
import { productKeys } from "../products/queries";
import { listEndpoints } from "../webhooks/webhooks-api";
import { endpointKeys } from "../webhooks/queries";

/**
 * Whether the seller has made one of each thing the getting-started list asks for: one row of each
 * list is enough. Each key sits under its domain's own (the webhook one under its lists), so making
 * the first product or endpoint ticks its step off.
 */
export const startedKeys = {
  products: (organizationId: string) => [...productKeys.all, "started", organizationId] as const,
  checkoutLinks: (organizationId: string) => [...checkoutLinkKeys.all, "started", organizationId] as const,
  endpoints: (organizationId: string) => [...endpointKeys.lists(), "started", organizationId] as const,
  orders: (organizationId: string) => [...orderKeys.all, "started", organizationId] as const,
};

const newestOne = { sorting: "-created_at", page: 1, limit: 1 };

export const hasProduct = (organizationId: string) =>
  queryOptions({ queryKey: startedKeys.products(organizationId), queryFn: () => listProducts({ organizationId, search: "", archived: false, ...newestOne }), select: (list) => list.items.length > 0 });
export const hasCheckoutLink = (organizationId: string) =>
  queryOptions({ queryKey: startedKeys.checkoutLinks(organizationId), queryFn: () => listCheckoutLinks(organizationId, newestOne), select: (list) => list.items.length > 0 });
export const hasEndpoint = (organizationId: string) =>
  queryOptions({ queryKey: startedKeys.endpoints(organizationId), queryFn: () => listEndpoints({ organizationId, page: 1, limit: 1 }), select: (list) => list.items.length > 0 });
// A test purchase happens on the buyer's page, which refreshes nothing here: asked again each time the front page shows.
export const hasOrder = (organizationId: string) =>
  queryOptions({ queryKey: startedKeys.orders(organizationId), queryFn: () => listOrders({ organizationId, ...newestOne }), select: (list) => list.items.length > 0, staleTime: 0 });
