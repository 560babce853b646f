import { z } from "zod";
import { defineEndpoint, randomId, type Endpoint, type Knex, invalidField, pageJson, pageOf, paging, queryFlag, repeated, sorting, trimmedText, reachable } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import type { Billing } from "../billing.js";
import { metadataFilters, metadataInput, whereMetadata } from "../api/metadata.js";
import { benefits as liveBenefits } from "../benefits/benefits.sql.js";
import { customFields } from "../custom-fields/custom-fields.sql.js";
import { emitBillingEvent } from "../events.js";
import { files } from "../files/files.sql.js";
import { findSeller } from "../organizations/organizations.sql.js";
import { productJson, productsJson } from "./output.js";
import { checkPrices, pricesOfProducts, priceCreate, priceUpdate, type PriceCreate } from "./prices.js";
import { addPrices, archivePricesExcept, findProduct, insertProduct, products, replaceLinks, updateProduct, type ProductRow } from "./products.sql.js";
import { Interval, Product, ProductList } from "./schemas.js";

const TAG = "products";
const attachedFields = z.array(z.object({ custom_field_id: z.string(), required: z.boolean() }));
const details = {
  name: trimmedText({ min: 3, max: 256 }),
  description: z.string().nullish(),
  visibility: z.enum(["public", "private", "draft"]).optional(),
  medias: z.array(z.string()).nullish(),
  attached_custom_fields: attachedFields.optional(),
  metadata: metadataInput.default({}),
  trial_interval: Interval.nullish(),
  trial_interval_count: z.int().min(1).max(1000).nullish(),
};

/** One-time when no interval is given; recurring (every `recurring_interval_count` intervals) otherwise. */
const createBody = z.object({
  ...details,
  organization_id: z.string().nullish(),
  prices: z.array(priceCreate).min(1),
  recurring_interval: Interval.nullish(),
  recurring_interval_count: z.int().min(1).max(999).nullish(),
});

const updateBody = z.object({
  name: details.name.nullish(),
  description: details.description,
  visibility: details.visibility.nullish(),
  is_archived: z.boolean().nullish(),
  prices: z.array(priceUpdate).min(1).nullish(),
  medias: details.medias,
  attached_custom_fields: attachedFields.nullish(),
  metadata: metadataInput.optional(),
  recurring_interval: Interval.nullish(),
  recurring_interval_count: z.int().min(1).max(999).nullish(),
  trial_interval: details.trial_interval,
  trial_interval_count: details.trial_interval_count,
});

const SORTABLE = {
  created_at: "products.created_at",
  name: "products.name",
  price_amount_type: "first_price.amount_type",
  price_amount: "first_price.amount",
} as const;

export function productEndpoints(billing: Billing): Endpoint[] {
  const { db, access, outbox, config } = billing;
  const product = async (identity: IdentityClaims, scope: "products:read" | "products:write", id: string) => reachable(access, identity, scope, await findProduct(db, id), "Product");

  /** Media must be the seller's uploaded product images; custom fields the seller's own. */
  const checkLinks = async (organizationId: string, medias: string[] | undefined | null, fields: z.output<typeof attachedFields> | undefined | null) => {
    if (medias?.length) {
      const found = new Set((await files(db).where({ organization_id: organizationId, service: "product_media", is_uploaded: true }).whereIn("id", medias).select("id")).map((row) => row.id));
      const missing = medias.findIndex((id) => !found.has(id));
      if (missing >= 0) throw invalidField(["medias", missing], "Media not found, not uploaded yet, or not a product image", medias[missing]);
    }
    if (fields?.length) {
      const ids = fields.map((field) => field.custom_field_id);
      const found = new Set((await customFields(db).where({ organization_id: organizationId }).whereIn("id", ids).select("id")).map((row) => row.id));
      const missing = ids.findIndex((id) => !found.has(id));
      if (missing >= 0) throw invalidField(["attached_custom_fields", missing, "custom_field_id"], "Custom field not found", ids[missing]);
    }
  };

  const writeLinks = async (trx: Knex.Transaction, productId: string, medias: string[] | undefined | null, fields: z.output<typeof attachedFields> | undefined | null) => {
    if (medias) await replaceLinks(trx, "product_medias", productId, medias.map((id) => ({ file_id: id })));
    if (fields) await replaceLinks(trx, "product_custom_fields", productId, fields.map((field) => ({ custom_field_id: field.custom_field_id, required: field.required })));
  };

  const announce = async (trx: Knex.Transaction, type: "product.created" | "product.updated", row: ProductRow) => {
    const json = await productJson(trx, row, config.PUBLIC_URL);
    await emitBillingEvent(outbox, trx, type, row.organization_id, json);
    return json;
  };

  /** The currency a price is in: its own, else the seller's default. */
  const currencyOf = async (organizationId: string) => (await findSeller(db, organizationId))?.default_presentment_currency ?? "usd";

  return [
    defineEndpoint("/v1/products/", { method: "POST", status: 201, body: createBody, response: Product, summary: "Create a product", tag: TAG }, async ({ body, identity }) => {
      const organizationId = await access.organizationFor(identity, "products:write", body.organization_id);
      const recurring = Boolean(body.recurring_interval);
      const fallbackCurrency = await currencyOf(organizationId);
      const prices = body.prices.map((price, index) => ({ price, index, currency: price.price_currency ?? fallbackCurrency, type: price.amount_type }));
      checkPrices(prices, recurring);
      await checkLinks(organizationId, body.medias, body.attached_custom_fields);
      return db.transaction(async (trx) => {
        const created = await insertProduct(trx, {
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
        await addPrices(trx, created.id, prices, 0);
        await writeLinks(trx, created.id, body.medias, body.attached_custom_fields);
        return announce(trx, "product.created", created);
      });
    }),

    defineEndpoint(
      "/v1/products/",
      {
        method: "GET",
        query: z.object({
          ...paging,
          organization_id: repeated(z.string()),
          id: repeated(z.string()),
          query: z.string().optional(),
          is_archived: queryFlag().optional(),
          is_recurring: queryFlag().optional(),
          benefit_id: repeated(z.string()),
          visibility: repeated(z.enum(["public", "private", "draft"])),
          sorting: sorting(Object.keys(SORTABLE) as (keyof typeof SORTABLE)[], "-created_at"),
        }),
        response: ProductList,
        summary: "List products",
        tag: TAG,
      },
      async ({ query, identity, req }) => {
        // The product's first live price, for sorting by price.
        const firstPrice = db("product_prices")
          .distinctOn("product_id")
          .where({ is_archived: false })
          .orderBy([{ column: "product_id" }, { column: "position" }])
          .select("product_id", "amount_type", db.raw("coalesce(price_amount, minimum_amount, 0) as amount"))
          .as("first_price");
        const found = products(db)
          .leftJoin(firstPrice, "first_price.product_id", "products.id")
          .whereIn("products.organization_id", await access.organizationIds(identity, "products:read"))
          .select("products.*");
        if (query.organization_id) void found.whereIn("products.organization_id", query.organization_id);
        if (query.id) void found.whereIn("products.id", query.id);
        if (query.query) void found.whereILike("products.name", `%${query.query}%`);
        if (query.is_archived !== undefined) void found.where("products.is_archived", query.is_archived);
        if (query.is_recurring !== undefined) void (query.is_recurring ? found.whereNotNull("products.recurring_interval") : found.whereNull("products.recurring_interval"));
        if (query.visibility) void found.whereIn("products.visibility", query.visibility);
        if (query.benefit_id) void found.whereIn("products.id", db("product_benefits").whereIn("benefit_id", query.benefit_id).select("product_id"));
        whereMetadata(found, "products.metadata", metadataFilters(req));
        const { rows, total } = await pageOf<ProductRow, keyof typeof SORTABLE>(found, { ...query, sort: query.sorting, columns: SORTABLE, table: "products" });
        return pageJson(await productsJson(db, rows, config.PUBLIC_URL), total, query.limit);
      },
    ),

    defineEndpoint("/v1/products/:id", { method: "GET", params: z.object({ id: z.string() }), response: Product, summary: "Get a product", tag: TAG }, async ({ params, identity }) =>
      productJson(db, await product(identity, "products:read", params.id), config.PUBLIC_URL),
    ),

    defineEndpoint("/v1/products/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: updateBody, response: Product, summary: "Update a product", tag: TAG }, async ({ params, body, identity }) => {
      const existing = await product(identity, "products:write", params.id);
      const recurringInterval = body.recurring_interval !== undefined ? body.recurring_interval : existing.recurring_interval;
      // A product stays one-time or recurring: its orders and subscriptions were made as such.
      if ((recurringInterval === null) !== (existing.recurring_interval === null)) {
        throw invalidField(["recurring_interval"], "A product cannot change between one-time and recurring", body.recurring_interval);
      }
      const current = (await pricesOfProducts(db, [existing.id])).filter((price) => !price.is_archived);
      const fallbackCurrency = await currencyOf(existing.organization_id);
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
        kept = prices.flatMap(({ price }) => ("id" in price ? [price.id] : []));
        added = prices.flatMap(({ price, currency }) => ("amount_type" in price ? [{ price, currency }] : []));
      }
      await checkLinks(existing.organization_id, body.medias, body.attached_custom_fields);
      return db.transaction(async (trx) => {
        const updated = await updateProduct(trx, existing.id, {
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
          await archivePricesExcept(trx, existing.id, kept);
          await addPrices(trx, existing.id, added, current.length);
        }
        await writeLinks(trx, existing.id, body.medias, body.attached_custom_fields);
        return announce(trx, "product.updated", updated);
      });
    }),

    defineEndpoint(
      "/v1/products/:id/benefits",
      { method: "POST", params: z.object({ id: z.string() }), body: z.object({ benefits: z.array(z.string()) }), response: Product, summary: "Set the benefits a product grants", tag: TAG },
      async ({ params, body, identity }) => {
        const existing = await product(identity, "products:write", params.id);
        const wanted = [...new Set(body.benefits)];
        const found = new Set((await liveBenefits(db).where({ organization_id: existing.organization_id, selectable: true }).whereIn("id", wanted).select("id")).map((row) => row.id));
        const missing = wanted.findIndex((id) => !found.has(id));
        if (missing >= 0) throw invalidField(["benefits", missing], "Benefit not found", wanted[missing]);
        return db.transaction(async (trx) => {
          await replaceLinks(trx, "product_benefits", existing.id, wanted.map((id) => ({ benefit_id: id })));
          return announce(trx, "product.updated", await updateProduct(trx, existing.id, {}));
        });
      },
    ),
  ];
}
