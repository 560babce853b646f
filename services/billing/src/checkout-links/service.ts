import { invalidField, notFound, randomId, type Knex, type ValidationError } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import type { z } from "zod";
import { readCatalog } from "../checkouts/checkouts.sql.js";
import { openCheckout } from "../checkouts/service.js";
import { findDiscount } from "../discounts/discounts.sql.js";
import { findPrice, findProduct, productsWithParts, unarchivedProductsOf } from "../products/products.sql.js";
import { findCheckoutLinkBySecret, insertCheckoutLink, linksWithParts, updateCheckoutLink, type CheckoutLinkRow, type CheckoutLinkSettings } from "./checkout-links.sql.js";
import { checkoutLinkJson } from "./output.js";
import { seatLockProblem } from "./seat-lock.js";
import type { CheckoutLinkCreateBody, CheckoutLinkPrefill, CheckoutLinkUpdateBody } from "./schemas.js";
import type { Parts } from "../parts.js";

// The reads the routes make, as the store has them: a link by id, a page of them.
export { findCheckoutLink, pageOfCheckoutLinks } from "./checkout-links.sql.js";

/** Checkout links as Polar shows them, with their products and discount, read for all at once. */
export async function shownLinks(db: Knex, rows: CheckoutLinkRow[], publicUrl: string) {
  const parts = await linksWithParts(db, rows);
  return rows.map((link) => checkoutLinkJson(link, parts, publicUrl));
}

async function shownLink(db: Knex, link: CheckoutLinkRow, publicUrl: string) {
  const [json] = await shownLinks(db, [link], publicUrl);
  if (!json) throw new Error(`checkout link ${link.id} could not be shown`);
  return json;
}

/** The link's products and discount must be the seller's own, the products not archived. */
async function checkSelling(db: Knex, organizationId: string, productIds: string[], discountId: string | null | undefined): Promise<void> {
  const found = await unarchivedProductsOf(db, organizationId, productIds);
  const missing = productIds.findIndex((id) => !found.some((product) => product.id === id));
  if (missing >= 0) throw invalidField(["products", missing], "Product not found or archived", productIds[missing]);
  if (discountId) {
    const discount = await findDiscount(db, discountId);
    if (discount?.organization_id !== organizationId) throw invalidField(["discount_id"], "Discount not found", discountId);
  }
}

/** The seats a link is to fix, checked against its products as Polar checks them. */
async function checkedSeats(db: Knex, seats: number, productIds: string[]): Promise<number> {
  const problem = seatLockProblem(seats, await productsWithParts(db, productIds));
  if (problem) throw invalidField(["seats"], problem, seats);
  return seats;
}

/** A seller's new link, for products named as Polar lets them be: several, one, or one of its prices (its product). */
export async function createLink({ db, access, config }: Pick<Parts, "db" | "units" | "access" | "config">, identity: IdentityClaims, body: z.output<typeof CheckoutLinkCreateBody>) {
  let productIds = body.products ?? (body.product_id ? [body.product_id] : []);
  if (body.product_price_id) {
    const price = await findPrice(db, body.product_price_id);
    if (!price) throw invalidField(["product_price_id"], "Price not found", body.product_price_id);
    productIds = [price.product_id];
  }
  const [first] = productIds;
  if (first === undefined) throw invalidField(["products"], "Name at least one product", null);
  const owner = await findProduct(db, first);
  if (!owner || !(await access.allows(identity, "checkout_links:write", owner.organization_id))) throw invalidField(["products", 0], "Product not found or archived", first);
  await checkSelling(db, owner.organization_id, productIds, body.discount_id);
  const link = await insertCheckoutLink(db, {
    id: randomId(32),
    organization_id: owner.organization_id,
    client_secret: `polar_cl_${randomId(40)}`,
    product_ids: productIds,
    label: body.label ?? null,
    allow_discount_codes: body.allow_discount_codes ?? true,
    require_billing_address: body.require_billing_address ?? false,
    discount_id: body.discount_id ?? null,
    seats: body.seats ? await checkedSeats(db, body.seats, productIds) : null,
    success_url: body.success_url ?? null,
    return_url: body.return_url ?? null,
    metadata: body.metadata ?? {},
  });
  return shownLink(db, link, config.PUBLIC_URL);
}

/** A change to a link, checked as a new one is. */
export async function reviseLink({ db, config }: Pick<Parts, "db" | "units" | "access" | "config">, link: CheckoutLinkRow, body: z.output<typeof CheckoutLinkUpdateBody>) {
  const changes: Partial<CheckoutLinkSettings> = {};
  if (body.products) changes.product_ids = body.products;
  for (const field of ["allow_discount_codes", "require_billing_address"] as const) {
    const value = body[field];
    if (value !== undefined && value !== null) changes[field] = value;
  }
  for (const field of ["label", "discount_id", "success_url", "return_url"] as const) {
    if (body[field] !== undefined) changes[field] = body[field];
  }
  if (body.metadata) changes.metadata = body.metadata;
  const productIds = changes.product_ids ?? link.product_ids;
  await checkSelling(db, link.organization_id, productIds, changes.discount_id);
  // Seats asked for are checked against the products; seats kept that the new products no longer allow fall away, as Polar's do.
  if (body.seats !== undefined) changes.seats = body.seats === null ? null : await checkedSeats(db, body.seats, productIds);
  else if (changes.product_ids && link.seats !== null && seatLockProblem(link.seats, await productsWithParts(db, productIds))) changes.seats = null;
  return shownLink(db, await updateCheckoutLink(db, link.id, changes), config.PUBLIC_URL);
}

/** Whoever follows a link gets a fresh checkout of their own, with the link's settings and what they prefilled. */
export async function openFromLink(parts: Pick<Parts, "db" | "units" | "access" | "config">, clientSecret: string, prefill: z.output<typeof CheckoutLinkPrefill>) {
  const link = await findCheckoutLinkBySecret(parts.db, clientSecret);
  if (!link) throw notFound("Checkout link");
  const catalog = await readCatalog(parts.db, link.product_ids);
  const productIds = link.product_ids.filter((id) => catalog.products.get(id)?.organization_id === link.organization_id);
  // The link's seats hold while its products still allow them (their tiers may have changed since); else the buyer chooses.
  const seats = link.seats !== null && !seatLockProblem(link.seats, productIds.flatMap((id) => catalog.products.get(id) ?? [])) ? link.seats : null;
  const open = (revision: object) =>
    openCheckout(parts, catalog, {
      productIds,
      seats,
      minSeats: seats,
      maxSeats: seats,
      revision: { ...revision, discount_id: link.discount_id },
      settings: { allow_discount_codes: link.allow_discount_codes, require_billing_address: link.require_billing_address, success_url: link.success_url, return_url: link.return_url, metadata: link.metadata },
    });
  // A prefill that does not hold (a spent discount code) is dropped rather than keep the buyer out.
  return open(prefill).catch((error: ValidationError) => (Object.keys(prefill).length > 0 ? open({}) : Promise.reject(error)));
}

/** A deleted link is kept, marked: it no longer opens checkouts nor shows in lists. */
export async function removeLink(db: Knex, link: CheckoutLinkRow): Promise<void> {
  await updateCheckoutLink(db, link.id, { deleted_at: new Date() });
}
