import type { z } from "zod";
import { HttpError, invalidField, isForeignKeyViolation, notFound, randomId, reachable, type Sort, type UnitOfWork } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { findCustomer, findCustomerByExternalId, type CustomerRow } from "../customers/customers.sql.js";
import { announceBilling } from "../events.js";
import { releaseRedemption } from "../discounts/discounts.sql.js";
import { amountFor, chosenPrice, seatsFor } from "../products/prices.js";
import { sellerClock } from "../test-clock/clock.js";
import {
  catalogOf,
  changedCheckout,
  checkoutWithCatalog,
  findCheckout,
  insertCheckout,
  lockOverdueCheckout,
  pageOfCheckouts,
  readCatalog,
  type CheckoutCatalog,
  type CheckoutFilter,
  type CheckoutRow,
  type CHECKOUT_SORTABLE,
} from "./checkouts.sql.js";
import { checkoutJson, type CheckoutJson } from "./output.js";
import { offerOf } from "./pricing.js";
import { revise, type Revision } from "./revision.js";
import { checkedSeatBounds } from "./seat-bounds.js";
import type { CheckoutUpdateBody } from "./schemas.js";
import type { Parts } from "../parts.js";

// The read the routes make, as the store has it: a checkout by id, for the access check before a change.
export { findCheckout } from "./checkouts.sql.js";


/** How long a checkout stays open. */
export const CHECKOUT_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Polar's answer for acting on a checkout that is no longer open. */
export const notOpen = (checkout: Pick<CheckoutRow, "status">) => new HttpError(403, "NotOpenCheckout", `Checkout is not open: ${checkout.status}`);

/** A checkout picked by id (the seller's side) or by client secret (the customer's page). */
export type CheckoutKey = Pick<CheckoutRow, "id"> | Pick<CheckoutRow, "client_secret">;

/**
 * Announces a checkout's new state to the seller's webhooks with the changes that made it, and
 * gives back what it announced: the caller answers with it rather than read it all again.
 */
export function announceCheckout(parts: Pick<Parts, "config">, unit: UnitOfWork, checkout: CheckoutRow, catalog: CheckoutCatalog, type: "checkout.created" | "checkout.updated" = "checkout.updated"): CheckoutJson {
  const json = checkoutJson(checkout, catalog, parts.config);
  announceBilling(unit, checkout.status === "expired" ? [type, "checkout.expired"] : type, checkout.organization_id, json);
  return json;
}

/** A confirmed checkout paid (or free, or with a trial): it succeeds. */
export const succeedCheckout = (parts: Pick<Parts, "config">, unit: UnitOfWork, checkout: CheckoutRow, catalog: CheckoutCatalog): CheckoutJson =>
  announceCheckout(parts, unit, changedCheckout(unit, checkout, { status: "succeeded", payment_client_secret: null }), catalog);

/** The card was refused: the checkout opens again, saying why, and gives back its discount redemption. */
export function reopenDeclined(parts: Pick<Parts, "config">, unit: UnitOfWork, checkout: CheckoutRow, catalog: CheckoutCatalog, reason: string): CheckoutJson {
  if (checkout.discount_id) unit.change(releaseRedemption(unit.db, checkout.discount_id));
  return announceCheckout(parts, unit, changedCheckout(unit, checkout, { status: "open", payment_error: reason, payment_client_secret: null }), catalog);
}

/** The customer's bank wants them before paying (3-D Secure): the checkout tells its page how to finish, once. */
export function awaitCustomerAction(parts: Pick<Parts, "config">, unit: UnitOfWork, checkout: CheckoutRow, catalog: CheckoutCatalog, clientSecret: string): void {
  if (checkout.payment_client_secret === clientSecret) return;
  announceCheckout(parts, unit, changedCheckout(unit, checkout, { payment_client_secret: clientSecret }), catalog);
}

/** Expires the locked, open, overdue checkouts given, with the unit's other writes. */
export async function expire(parts: Pick<Parts, "config">, unit: UnitOfWork, overdue: CheckoutRow[]): Promise<void> {
  if (overdue.length === 0) return;
  const catalog = await catalogOf(unit.db, overdue);
  for (const checkout of overdue) announceCheckout(parts, unit, changedCheckout(unit, checkout, { status: "expired" }), catalog);
}

/**
 * A checkout as it stands now, `now` in its seller's clock (read with its catalog): one left open
 * past its time is expired on the spot rather than at the next sweep.
 */
async function current(parts: Pick<Parts, "db" | "units" | "access" | "config">, checkout: CheckoutRow, now: Date): Promise<CheckoutRow> {
  if (checkout.status !== "open" || checkout.expires_at > now) return checkout;
  return parts.units.run(async (unit) => {
    const locked = await lockOverdueCheckout(unit.db, checkout.id, now);
    if (locked) await expire(parts, unit, [locked]);
    // Written now, to be read back as it is.
    await unit.write();
    return (await findCheckout(unit.db, checkout.id)) ?? checkout;
  });
}

/** What a change to an open checkout answers with: the checkout as announced, and its catalog. */
export interface ChangedCheckout {
  json: CheckoutJson;
  catalog: CheckoutCatalog;
}

/**
 * Changes an open checkout under a lock on its row, so that a change and a confirmation, or two
 * confirmations, happen one after the other: the second finds the checkout no longer open (403).
 * `work` adds its changes and announcement to the unit, written in one statement when it returns.
 * A checkout found past its time is expired (and that is written) before the 403.
 */
export async function changeOpenCheckout(parts: Pick<Parts, "db" | "units" | "access" | "config">, which: CheckoutKey, work: (checkout: CheckoutRow, catalog: CheckoutCatalog, unit: UnitOfWork) => Promise<CheckoutJson>): Promise<ChangedCheckout> {
  const outcome = await parts.units.run(async (unit): Promise<ChangedCheckout | { expired: CheckoutRow }> => {
    const found = await checkoutWithCatalog(unit.db, which, true);
    if (!found) throw notFound("Checkout");
    const { checkout, catalog } = found;
    if (checkout.status === "open" && checkout.expires_at <= sellerClock(offerOf(catalog, checkout).seller)) {
      const expired = changedCheckout(unit, checkout, { status: "expired" });
      announceCheckout(parts, unit, expired, catalog);
      return { expired };
    }
    if (checkout.status !== "open") throw notOpen(checkout);
    return { json: await work(checkout, catalog, unit), catalog };
  });
  if ("expired" in outcome) throw notOpen(outcome.expired);
  return outcome;
}

/** A checkout as it stands now and as shown, read with its catalog (and for a seller, checked to be theirs to read). */
export async function shownCheckout(parts: Pick<Parts, "db" | "units" | "access" | "config">, which: CheckoutKey, identity?: IdentityClaims): Promise<ChangedCheckout> {
  const read = await checkoutWithCatalog(parts.db, which, false);
  if (!read) throw notFound("Checkout");
  if (identity) await reachable(parts.access, identity, "checkouts:read", read.checkout, "Checkout");
  const { catalog } = read;
  const checkout = await current(parts, read.checkout, sellerClock(offerOf(catalog, read.checkout).seller));
  return { json: checkoutJson(checkout, catalog, parts.config), catalog };
}

/** A page of the seller's checkouts as they stand now. */
export async function checkoutPage(parts: Pick<Parts, "db" | "units" | "access" | "config">, filter: CheckoutFilter, page: { page: number; limit: number; sort: Sort<keyof typeof CHECKOUT_SORTABLE> }) {
  const { rows, total } = await pageOfCheckouts(parts.db, filter, page);
  // The page's catalog holds each seller, and so each seller's clock.
  const catalog = await catalogOf(parts.db, rows);
  const shown = await Promise.all(rows.map(async (row) => current(parts, row, sellerClock(offerOf(catalog, row).seller))));
  return { items: shown.map((row) => checkoutJson(row, catalog, parts.config)), total };
}

/** The seller's settings a body changes, as columns. */
export function settingsOf(body: z.output<typeof CheckoutUpdateBody>): Partial<CheckoutRow> {
  const changes: Partial<CheckoutRow> = {};
  for (const key of ["allow_discount_codes", "require_billing_address", "allow_trial"] as const) {
    const value = body[key];
    if (value !== undefined && value !== null) changes[key] = value;
  }
  for (const key of ["customer_ip_address", "success_url", "return_url", "embed_origin"] as const) {
    if (body[key] !== undefined) changes[key] = body[key];
  }
  if (body.metadata) changes.metadata = body.metadata;
  if (body.customer_metadata) changes.customer_metadata = body.customer_metadata;
  return changes;
}

/** Applies a revision (and the seller's settings) to an open checkout and announces it. */
export const reviseCheckout = (parts: Pick<Parts, "db" | "units" | "access" | "config">, which: CheckoutKey, revision: Revision, settings: Partial<CheckoutRow> = {}) =>
  changeOpenCheckout(parts, which, async (checkout, catalog, unit) => announceCheckout(parts, unit, changedCheckout(unit, checkout, { ...(await revise(unit.db, checkout, revision, catalog)), ...settings }), catalog));

/** What a new checkout is asked to offer and start with. */
export interface CheckoutRequest {
  productIds: string[];
  productId?: string | null | undefined;
  priceId?: string | null | undefined;
  amount?: number | null | undefined;
  /** The seats of a seat-based price, and the bounds the buyer may choose them between. */
  seats?: number | null | undefined;
  minSeats?: number | null | undefined;
  maxSeats?: number | null | undefined;
  currency?: string | null | undefined;
  customerId?: string | null | undefined;
  externalCustomerId?: string | null | undefined;
  /** The buyer's details and a discount, checked as any later change is. */
  revision: Revision;
  /** The seller's settings (metadata, URLs, flags) as columns. */
  settings: Partial<CheckoutRow>;
}

/** A seller's new checkout: its products must all be one seller's, whose checkouts the caller may write. */
export async function createCheckout(parts: Pick<Parts, "db" | "units" | "access" | "config">, identity: IdentityClaims, request: CheckoutRequest): Promise<CheckoutJson> {
  const catalog = await readCatalog(parts.db, request.productIds);
  const offered = request.productIds.map((id) => catalog.products.get(id));
  const missing = offered.findIndex((product) => !product);
  if (missing >= 0) throw invalidField(["products", missing], "Product not found", request.productIds[missing]);
  const organizationId = offered[0]?.organization_id ?? "";
  for (const [index, product] of offered.entries()) {
    if (product?.organization_id !== organizationId || !(await parts.access.allows(identity, "checkouts:write", organizationId))) throw invalidField(["products", index], "Product not found", request.productIds[index]);
  }
  return (await openCheckout(parts, catalog, request)).json;
}

/**
 * Opens a checkout for products the caller has already found in `catalog` and may sell (one
 * seller's, none archived): the chosen product's price in the currency asked for or the seller's
 * default, its amount, and the request's details; written with its checkout.created in one
 * statement, and shown as announced.
 */
export async function openCheckout(parts: Pick<Parts, "db" | "units" | "access" | "config">, catalog: CheckoutCatalog, request: CheckoutRequest): Promise<ChangedCheckout> {
  const { db } = parts;
  const offered = request.productIds.flatMap((id) => catalog.products.get(id) ?? []);
  for (const [index, product] of offered.entries()) {
    if (product.is_archived) throw invalidField(["products", index], "This product is archived", product.id);
  }
  const first = offered.find((product) => product.id === (request.productId ?? request.productIds[0]));
  if (!first) throw invalidField(["product_id"], "This product is not offered in this checkout", request.productId);
  const organizationId = first.organization_id;
  const seller = catalog.sellers.get(organizationId);
  if (!seller) throw invalidField(["products", 0], "Product not found", first.id);
  const price = chosenPrice(first, request.currency ?? seller.default_presentment_currency, request.priceId, ["products", request.productIds.indexOf(first.id)]);
  const seatBounds = checkedSeatBounds(price, { min: request.minSeats ?? null, max: request.maxSeats ?? null });
  const seats = seatsFor(price, request.seats, seatBounds);
  let customer: CustomerRow | undefined;
  if (request.customerId) {
    customer = await findCustomer(db, request.customerId);
    if (customer?.organization_id !== organizationId) throw invalidField(["customer_id"], "Customer not found", request.customerId);
  } else if (request.externalCustomerId) {
    customer = await findCustomerByExternalId(db, [organizationId], request.externalCustomerId);
  }
  const draft: CheckoutRow = {
    id: randomId(32),
    organization_id: organizationId,
    client_secret: `polar_c_${randomId(48)}`,
    status: "open",
    product_ids: request.productIds,
    product_id: first.id,
    product_price_id: price.id,
    amount: amountFor(price, request.amount, ["amount"], seats),
    seats,
    min_seats: seatBounds.min,
    max_seats: seatBounds.max,
    currency: price.price_currency,
    discount_id: null,
    allow_discount_codes: true,
    require_billing_address: false,
    allow_trial: true,
    // A known customer's details are filled in, as Polar does, so they need not type them again.
    customer_id: customer?.id ?? null,
    external_customer_id: request.externalCustomerId ?? customer?.external_id ?? null,
    is_business_customer: false,
    customer_name: customer?.name ?? null,
    customer_email: customer?.email ?? null,
    customer_ip_address: null,
    customer_billing_name: null,
    customer_billing_address: customer?.billing_address ?? null,
    customer_tax_id: customer?.tax_id ?? null,
    customer_metadata: {},
    custom_field_data: {},
    metadata: {},
    success_url: null,
    return_url: null,
    embed_origin: null,
    locale: null,
    payment_error: null,
    payment_client_secret: null,
    // In the seller's clock, so a sandbox seller who moved time ahead still gets a day to pay.
    expires_at: new Date(sellerClock(seller).getTime() + CHECKOUT_LIFETIME_MS),
    created_at: new Date(),
    modified_at: null,
  };
  const checkout = { ...draft, ...(await revise(db, draft, request.revision, catalog)), ...request.settings };
  // One statement, so no transaction: the checkout and its announcement are written together or not at all.
  const json = await parts.units
    .run(
      (unit) => {
        unit.change(insertCheckout(unit.db, checkout));
        return Promise.resolve(announceCheckout(parts, unit, checkout, catalog, "checkout.created"));
      },
      { transaction: false },
    )
    .catch((error: unknown) => {
      // The product was deleted since it was read: it is not found, as it would be a moment later.
      throw isForeignKeyViolation(error, "checkouts_product") ? invalidField(["products", request.productIds.indexOf(first.id)], "Product not found", first.id) : error;
    });
  return { json, catalog };
}
