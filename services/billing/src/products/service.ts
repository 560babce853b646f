import type { z } from "zod";
import { HttpError, invalidField, isForeignKeyViolation, randomId, type Knex, type UnitOfWork } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { selectableBenefitIds } from "../benefits/benefits.sql.js";
import { customFieldIdsOf } from "../custom-fields/custom-fields.sql.js";
import { announceBilling } from "../events.js";
import { productImageIds } from "../files/files.sql.js";
import { meterIdsOf } from "../meters/meters.sql.js";
import { findSeller } from "../organizations/organizations.sql.js";
import { sellerProductJson, type SellerProductJson } from "./output.js";
import { checkPrices, type PriceCreate } from "./prices.js";
import { addPrices, archivePricesExcept, deletableProductIds, deleteProductRow, holdersOfProduct, insertProduct, pricesOfProducts, productWithParts, replaceLinks, updateProduct, type ProductHolder, type ProductRow } from "./products.sql.js";
import type { ProductCreate, ProductLinks, ProductUpdate } from "./schemas.js";

// The reads the routes make, as the store has them: a product by id, a page of them, with their parts.
export { deletableProductIds, findPrice, findProduct, pageOfProducts, productsWithParts, productWithParts } from "./products.sql.js";

/** The first of `wanted` not among `found`, by position. */
const firstMissing = (wanted: string[], found: string[]) => {
  const known = new Set(found);
  return wanted.findIndex((id) => !known.has(id));
};

/** Media must be the seller's uploaded product images; custom fields the seller's own. */
async function checkLinks(db: Knex, organizationId: string, { medias, attached_custom_fields: fields }: ProductLinks): Promise<void> {
  if (medias?.length) {
    const missing = firstMissing(medias, await productImageIds(db, organizationId, medias));
    if (missing >= 0) throw invalidField(["medias", missing], "Media not found, not uploaded yet, or not a product image", medias[missing]);
  }
  if (fields?.length) {
    const ids = fields.map((field) => field.custom_field_id);
    const missing = firstMissing(ids, await customFieldIdsOf(db, organizationId, ids));
    if (missing >= 0) throw invalidField(["attached_custom_fields", missing, "custom_field_id"], "Custom field not found", ids[missing]);
  }
}

/** A metered price bills one of the seller's own meters. */
async function checkMeters(db: Knex, organizationId: string, prices: { price: PriceCreate | { id: string }; index: number }[]): Promise<void> {
  const metered = prices.flatMap(({ price, index }) => ("amount_type" in price && price.amount_type === "metered_unit" ? [{ meterId: price.meter_id, index }] : []));
  const known = new Set(await meterIdsOf(db, organizationId, metered.map(({ meterId }) => meterId)));
  const unknown = metered.find(({ meterId }) => !known.has(meterId));
  if (unknown) throw invalidField(["prices", unknown.index, "meter_id"], "Meter not found", unknown.meterId);
}

async function writeLinks(db: Knex, productId: string, { medias, attached_custom_fields: fields }: ProductLinks): Promise<void> {
  if (medias) await replaceLinks(db, "product_medias", productId, medias.map((id) => ({ file_id: id })));
  if (fields) await replaceLinks(db, "product_custom_fields", productId, fields.map((field) => ({ custom_field_id: field.custom_field_id, required: field.required })));
}

/** The product as it now is, announced to the seller's webhooks. */
async function announceProduct(parts: Pick<Parts, "db" | "units" | "config">, unit: UnitOfWork, type: "product.created" | "product.updated", row: ProductRow): Promise<SellerProductJson> {
  const json = sellerProductJson(await productWithParts(unit.db, row.id), parts.config.PUBLIC_URL, (await deletableProductIds(unit.db, [row.id])).has(row.id));
  announceBilling(unit, type, row.organization_id, json);
  return json;
}

/** The currency a price is in: its own, else the seller's default. */
const currencyOf = async (db: Knex, organizationId: string) => (await findSeller(db, organizationId))?.default_presentment_currency ?? "usd";

/** A new product: recurring when it has an interval (once by default), with a trial only then. */
export async function createProduct(parts: Pick<Parts, "db" | "units" | "config">, organizationId: string, body: z.output<typeof ProductCreate>): Promise<SellerProductJson> {
  const recurring = Boolean(body.recurring_interval);
  const fallbackCurrency = await currencyOf(parts.db, organizationId);
  const prices = body.prices.map((price, index) => ({ price, index, currency: price.price_currency ?? fallbackCurrency, type: price.amount_type }));
  checkPrices(prices, recurring);
  await checkMeters(parts.db, organizationId, prices);
  await checkLinks(parts.db, organizationId, body);
  return parts.units.run(async (unit) => {
    const created = await insertProduct(unit.db, {
      id: randomId(32),
      organization_id: organizationId,
      name: body.name,
      description: body.description ?? null,
      visibility: body.visibility ?? "public",
      recurring_interval: body.recurring_interval ?? null,
      recurring_interval_count: recurring ? (body.recurring_interval_count ?? 1) : null,
      trial_interval: recurring ? (body.trial_interval ?? null) : null,
      trial_interval_count: recurring && body.trial_interval ? (body.trial_interval_count ?? 1) : null,
      is_archived: false,
      metadata: body.metadata,
    });
    await addPrices(unit.db, created.id, prices, 0);
    await writeLinks(unit.db, created.id, body);
    return announceProduct(parts, unit, "product.created", created);
  });
}

/**
 * Changes a product. A product stays one-time or recurring: its orders and subscriptions were made
 * as such. Prices given replace the live ones: those named by id are kept, the others archived (never
 * deleted, orders refer to them), and new ones are added after.
 */
const HOLDERS: Record<ProductHolder, string> = { orders: "orders", subscriptions: "subscriptions", checkouts: "checkouts", checkout_links: "checkout links", discounts: "discounts" };

const notDeletable = (product: ProductRow, heldBy: string) =>
  new HttpError(409, "ProductNotDeletable", `Product ${product.id} is used by ${heldBy}, so it cannot be deleted; archive it to stop selling it.`);

/**
 * Deletes a product nothing names: never sold, subscribed to, offered in a checkout or link, nor
 * discounted — what names a product must go on showing what it was (Polar's rule). Else 409
 * ProductNotDeletable, naming what holds it.
 */
export async function deleteProduct(db: Knex, product: ProductRow): Promise<void> {
  try {
    await db.transaction(async (trx) => {
      const holders = await holdersOfProduct(trx, product.id);
      if (holders.length > 0) throw notDeletable(product, holders.map((holder) => HOLDERS[holder]).join(", "));
      await deleteProductRow(trx, product.id);
    });
  } catch (error) {
    // A price of it on another product's order (a plan change's credit for unused time) holds it too: the database's keys say so.
    if (isForeignKeyViolation(error)) throw notDeletable(product, "an order's line");
    throw error;
  }
}

export async function changeProduct(parts: Pick<Parts, "db" | "units" | "config">, existing: ProductRow, body: z.output<typeof ProductUpdate>): Promise<SellerProductJson> {
  const recurringInterval = body.recurring_interval !== undefined ? body.recurring_interval : existing.recurring_interval;
  if ((recurringInterval === null) !== (existing.recurring_interval === null)) {
    throw invalidField(["recurring_interval"], "A product cannot change between one-time and recurring", body.recurring_interval);
  }
  const current = (await pricesOfProducts(parts.db, [existing.id])).filter((price) => !price.is_archived);
  const fallbackCurrency = await currencyOf(parts.db, existing.organization_id);
  let kept: string[] | null = null;
  let added: { price: PriceCreate; currency: string }[] = [];
  if (body.prices) {
    const prices = body.prices.map((price, index) => {
      if ("amount_type" in price) return { price, index, currency: price.price_currency ?? fallbackCurrency, type: price.amount_type };
      const existingPrice = current.find((candidate) => candidate.id === price.id);
      if (!existingPrice) throw invalidField(["prices", index, "id"], "Price not found on this product", price.id);
      return { price, index, currency: existingPrice.price_currency, type: existingPrice.amount_type };
    });
    checkPrices(prices, recurringInterval !== null);
    await checkMeters(parts.db, existing.organization_id, prices);
    kept = prices.flatMap(({ price }) => ("id" in price ? [price.id] : []));
    added = prices.flatMap(({ price, currency }) => ("amount_type" in price ? [{ price, currency }] : []));
  }
  await checkLinks(parts.db, existing.organization_id, body);
  return parts.units.run(async (unit) => {
    const updated = await updateProduct(unit.db, existing.id, {
      ...(body.name ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.visibility ? { visibility: body.visibility } : {}),
      ...(typeof body.is_archived === "boolean" ? { is_archived: body.is_archived } : {}),
      ...(body.metadata ? { metadata: body.metadata } : {}),
      ...(body.recurring_interval ? { recurring_interval: body.recurring_interval } : {}),
      ...(body.recurring_interval_count ? { recurring_interval_count: body.recurring_interval_count } : {}),
      ...(body.trial_interval !== undefined ? { trial_interval: body.trial_interval, trial_interval_count: body.trial_interval ? (body.trial_interval_count ?? 1) : null } : {}),
    });
    if (kept) {
      await archivePricesExcept(unit.db, existing.id, kept);
      await addPrices(unit.db, existing.id, added, current.length);
    }
    await writeLinks(unit.db, existing.id, body);
    return announceProduct(parts, unit, "product.updated", updated);
  });
}

/** Sets the benefits a product grants, in order: the seller's own benefits that may be attached. */
export async function setProductBenefits(parts: Pick<Parts, "db" | "units" | "config">, existing: ProductRow, benefitIds: string[]): Promise<SellerProductJson> {
  const wanted = [...new Set(benefitIds)];
  const missing = firstMissing(wanted, await selectableBenefitIds(parts.db, existing.organization_id, wanted));
  if (missing >= 0) throw invalidField(["benefits", missing], "Benefit not found", wanted[missing]);
  return parts.units.run(async (unit) => {
    await replaceLinks(unit.db, "product_benefits", existing.id, wanted.map((id) => ({ benefit_id: id })));
    return announceProduct(parts, unit, "product.updated", await updateProduct(unit.db, existing.id, {}));
  });
}
