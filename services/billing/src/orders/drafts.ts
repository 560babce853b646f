import { ValidationError } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import type { z } from "zod";
import type { Parts } from "../parts.js";
import { revisedAnswers } from "../custom-fields/answers.js";
import { findCustomer } from "../customers/customers.sql.js";
import { findSeller } from "../organizations/organizations.sql.js";
import { minimumAmount, type PriceRow } from "../products/prices.js";
import { productsWithParts } from "../products/products.sql.js";
import { taxTermsFor } from "../taxes/calculation.js";
import { productLine } from "./lines.js";
import type { OrderCreate } from "./schemas.js";
import { openDraft, shownOrder, type OrderDraft } from "./service.js";

/** Polar refuses what a draft would be made of with a 422 naming the field. */
const refused = (field: string, message: string, input: unknown, code = "value_error") => new ValidationError([{ location: "body", path: [field], message, code, input }]);

/** The prices an off-session charge can take: a fixed one or a free one, the amount set before the customer is asked for nothing. */
const CHARGEABLE = new Set<PriceRow["amount_type"]>(["fixed", "free"]);

/**
 * A draft order of one of the seller's one-time products for one of its customers (Polar's POST
 * /v1/orders/): the product's price in the currency asked (else the seller's default), or an amount
 * the seller sets, under its own line label, taxed where the customer's billing address says. Polar
 * opens this only to sellers it has opted in; self-hosted, the seller is its own platform, so every
 * seller may. Only the charge (`finalizeOrder`) makes it due to anyone.
 */
export async function createDraftOrder(parts: Pick<Parts, "db" | "units" | "access">, identity: IdentityClaims, body: z.output<typeof OrderCreate>) {
  const { db, units, access } = parts;
  const organizationId = await access.organizationFor(identity, "orders:write", body.organization_id);
  const [[product], seller, customer] = await Promise.all([productsWithParts(db, [body.product_id]), findSeller(db, organizationId), findCustomer(db, body.customer_id)]);
  if (!seller) throw new Error(`seller ${organizationId} is gone`);
  if (!product || product.organization_id !== organizationId) throw refused("product_id", "Product does not exist.", body.product_id);
  if (product.recurring_interval !== null) throw refused("product_id", "Subscription products are not supported by the off-session charge API. Use a one-time product.", body.product_id);
  const live = product.prices.filter((price) => !price.is_archived);
  if (live.some((price) => !CHARGEABLE.has(price.amount_type))) throw refused("product_id", "Off-session charges only support fixed-price products.", body.product_id);
  if (body.units != null) throw refused("units", "Units can only be given for a product with unit-based pricing.", body.units);
  const currency = body.currency ?? seller.default_presentment_currency;
  const price = live.find((candidate) => candidate.price_currency === currency);
  if (!price) {
    const message = body.currency ? `Product has no price in currency '${currency}'.` : `Product is not priced in the organization's default currency ('${currency}'); specify a currency to charge in.`;
    throw refused("currency", message, body.currency ?? null);
  }
  if (!customer || customer.organization_id !== organizationId) throw refused("customer_id", "Customer does not exist.", body.customer_id);
  const minimum = minimumAmount(currency);
  if (body.amount && body.amount < minimum) throw refused("amount", `Amount must be at least ${minimum}.`, body.amount, "greater_than_equal");

  const draft: OrderDraft = {
    organization_id: organizationId,
    customer_id: customer.id,
    checkout_id: null,
    subscription_id: null,
    discount_id: null,
    billing_reason: "purchase",
        seats: null,
    currency,
    billing_name: customer.billing_name ?? customer.name,
    billing_address: customer.billing_address,
    // Checked as a checkout's are, but none is required yet: the customer is not asked.
    custom_field_data: revisedAnswers(product.custom_fields, {}, body.custom_field_data),
    metadata: body.metadata,
    product,
    lines: [{ ...productLine(product, price, body.amount ?? price.price_amount ?? 0), label: body.description ?? product.name }],
    discount_amount: 0,
    tax: taxTermsFor(seller, price, { address: customer.billing_address, taxId: customer.tax_id }),
  };
  const order = await units.run((unit) => openDraft(unit, draft));
  return shownOrder(db, order);
}
