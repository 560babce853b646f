import { ValidationError } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import type { z } from "zod";
import type { Parts } from "../parts.js";
import { namedCustomer } from "../customers/named.js";
import { startFreePlan } from "../flows/start-subscription.js";
import { findSeller } from "../organizations/organizations.sql.js";
import { productsWithParts } from "../products/products.sql.js";
import { sellerNow } from "../test-clock/clock.js";
import type { SubscriptionCreate } from "./schemas.js";
import { freePlanPrice, shownSubscription } from "./service.js";

/** Polar refuses what a subscription would be made of with a 422 naming the field. */
const refused = (field: string, message: string, input: unknown) => new ValidationError([{ location: "body", path: [field], message, code: "value_error", input }]);

const PRICE_REFUSALS = {
  not_recurring: "Product is not a recurring product.",
  not_free: "Product is not free. The customer should go through a checkout to create a paid subscription.",
} as const;

/**
 * A free plan started for one of the seller's customers by the seller's call, without a checkout
 * (Polar's POST /v1/subscriptions/): no order and no receipt, the plan's benefits granted, and
 * subscription.created announced. A paid plan goes through a checkout, so the buyer agrees to pay.
 */
export async function createFreeSubscription(parts: Pick<Parts, "db" | "units" | "access" | "config">, identity: IdentityClaims, body: z.output<typeof SubscriptionCreate>) {
  const { db, units, access, config } = parts;
  const reachable = await access.organizationIds(identity, "subscriptions:write");
  const [product] = await productsWithParts(db, [body.product_id]);
  // Another seller's product is not there, as Polar says it.
  if (!product || !reachable.includes(product.organization_id)) throw refused("product_id", "Product does not exist.", body.product_id);
  if (product.is_archived) throw refused("product_id", "Product is archived.", body.product_id);
  const seller = await findSeller(db, product.organization_id);
  const price = freePlanPrice(product, seller?.default_presentment_currency ?? "usd");
  if (typeof price === "string") throw refused("product_id", PRICE_REFUSALS[price], body.product_id);

  // The customer is looked for among the product's seller's only.
  const { customer, field, input } = await namedCustomer(db, [product.organization_id], body);
  if (!customer) throw refused(field, "Customer does not exist.", input);

  const subscription = await units.run(async (unit) => startFreePlan(parts, unit, { customer, product, price, metadata: body.metadata, now: await sellerNow(unit.db, product.organization_id) }));
  return shownSubscription(db, subscription, config.PUBLIC_URL);
}
