import { z } from "zod";
import { defineEndpoint, invalidField, notFound, pageJson, pageOf, paging, reachable, repeated, sorting, whereAnyOf, type Endpoint } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import type { Billing } from "../billing.js";
import { addressInput } from "../api/address.js";
import { metadataFilters, metadataInput, whereMetadata } from "../api/metadata.js";
import { products } from "../products/products.sql.js";
import { checkouts, findCheckout, findCheckoutBySecret, updateCheckout, type CheckoutRow } from "./checkouts.sql.js";
import { checkComplete, confirmCheckout, notOpen } from "./confirm.js";
import { announceCheckout, current } from "./lifecycle.js";
import { checkoutJson, checkoutPublicJson } from "./output.js";
import { openCheckout } from "./open.js";
import { sellerNow } from "../test-clock/clock.js";
import { revise, type Revision } from "./revise.js";

const email = z.email().transform((value) => value.toLowerCase());
const customFieldData = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));

/** What both the seller and the customer may set about the buyer. */
const customerDetails = {
  customer_name: z.string().max(256).nullish(),
  customer_email: email.nullish(),
  customer_billing_name: z.string().max(256).nullish(),
  customer_billing_address: addressInput.nullish(),
  customer_tax_id: z.string().max(64).nullish(),
  is_business_customer: z.boolean().nullish(),
  locale: z.string().max(16).nullish(),
  custom_field_data: customFieldData.optional(),
  product_id: z.string().nullish(),
  product_price_id: z.string().nullish(),
  amount: z.int().min(0).nullish(),
};

/** Seller-side settings, on creation and update alike. */
const sellerSettings = {
  metadata: metadataInput.optional(),
  customer_metadata: metadataInput.optional(),
  discount_id: z.string().nullish(),
  allow_discount_codes: z.boolean().nullish(),
  require_billing_address: z.boolean().nullish(),
  allow_trial: z.boolean().nullish(),
  customer_ip_address: z.string().max(64).nullish(),
  success_url: z.url().nullish(),
  return_url: z.url().nullish(),
  embed_origin: z.url().nullish(),
};

/** Parts of Polar's create body this build cannot honour yet: refused by name rather than ignored. */
const notYet = z.null().optional();

const createBody = z.object({
  ...customerDetails,
  ...sellerSettings,
  products: z.array(z.string()).min(1),
  customer_id: z.string().nullish(),
  external_customer_id: z.string().min(1).nullish(),
  currency: z.string().regex(/^[A-Za-z]{3}$/).transform((value) => value.toLowerCase()).nullish(),
  prices: notYet,
  seats: notYet,
  min_seats: notYet,
  max_seats: notYet,
  subscription_id: notYet,
});

const updateBody = z.object({ ...customerDetails, ...sellerSettings });
const clientUpdateBody = z.object({ ...customerDetails, discount_code: z.string().nullish() });
const confirmBody = clientUpdateBody.extend({ confirmation_token_id: z.string().nullish() });

const SORTABLE = { created_at: "created_at", expires_at: "expires_at", status: "status" } as const;

/** The seller's settings a body changes, as columns. */
function settingsOf(body: z.output<typeof updateBody>): Partial<CheckoutRow> {
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

export function checkoutEndpoints(billing: Billing): Endpoint[] {
  const { db, access, config } = billing;
  const publicUrl = config.PUBLIC_URL;

  const seen = async (identity: IdentityClaims, scope: "checkouts:read" | "checkouts:write", id: string) => current(billing, await reachable(access, identity, scope, await findCheckout(db, id), "Checkout"));
  const bySecret = async (clientSecret: string) => {
    const checkout = await findCheckoutBySecret(db, clientSecret);
    if (!checkout) throw notFound("Checkout");
    return current(billing, checkout);
  };

  /** Applies a revision (and the seller's settings) to an open checkout and announces it. */
  const change = async (checkout: CheckoutRow, revision: Revision, settings: Partial<CheckoutRow> = {}) => {
    if (checkout.status !== "open") throw notOpen(checkout);
    const changes = { ...(await revise(db, checkout, revision)), ...settings };
    return db.transaction(async (trx) => announceCheckout(billing, trx, await updateCheckout(trx, checkout.id, changes)));
  };

  return [
    defineEndpoint("/v1/checkouts/", { method: "POST", status: 201, body: createBody }, async ({ body, identity }) => {
      const offered = await products(db).whereIn("id", body.products);
      const missing = body.products.findIndex((id) => !offered.some((product) => product.id === id));
      if (missing >= 0) throw invalidField(["products", missing], "Product not found", body.products[missing]);
      const organizationId = offered[0]?.organization_id ?? "";
      for (const [index, product] of offered.entries()) {
        if (product.organization_id !== organizationId || !(await access.allows(identity, "checkouts:write", product.organization_id))) throw invalidField(["products", index], "Product not found", product.id);
      }
      const { products: productIds, product_id: productId, product_price_id: priceId, amount, currency, customer_id: customerId, external_customer_id: externalCustomerId, ...details } = body;
      return openCheckout(billing, offered, { productIds, productId, priceId, amount, currency, customerId, externalCustomerId, revision: details, settings: settingsOf(body) });
    }),

    defineEndpoint(
      "/v1/checkouts/",
      {
        method: "GET",
        query: z.object({
          ...paging,
          organization_id: repeated(z.string()),
          product_id: repeated(z.string()),
          customer_id: repeated(z.string()),
          status: repeated(z.enum(["open", "expired", "confirmed", "succeeded", "failed"])),
          query: z.string().optional(),
          sorting: sorting(Object.keys(SORTABLE) as (keyof typeof SORTABLE)[], "-created_at"),
        }),
      },
      async ({ query, identity, req }) => {
        const found = checkouts(db).whereIn("organization_id", await access.organizationIds(identity, "checkouts:read"));
        whereAnyOf(found, query, ["organization_id", "product_id", "customer_id", "status"]);
        if (query.query) void found.where((match) => void match.whereILike("customer_email", `%${query.query}%`).orWhereILike("customer_name", `%${query.query}%`));
        whereMetadata(found, "metadata", metadataFilters(req));
        const { rows, total } = await pageOf<CheckoutRow, keyof typeof SORTABLE>(found, { ...query, sort: query.sorting, columns: SORTABLE, table: "checkouts" });
        // The seller's clock is read once per seller on the page, not once per checkout.
        const clocks = new Map(await Promise.all([...new Set(rows.map((row) => row.organization_id))].map(async (id) => [id, await sellerNow(db, id)] as const)));
        const shown = await Promise.all(rows.map(async (row) => checkoutJson(db, await current(billing, row, clocks.get(row.organization_id)), publicUrl)));
        return pageJson(shown, total, query.limit);
      },
    ),

    defineEndpoint("/v1/checkouts/:id", { method: "GET", params: z.object({ id: z.string() }) }, async ({ params, identity }) => checkoutJson(db, await seen(identity, "checkouts:read", params.id), publicUrl)),

    defineEndpoint("/v1/checkouts/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: updateBody }, async ({ params, body, identity }) => {
      const checkout = await seen(identity, "checkouts:write", params.id);
      return change(checkout, body, settingsOf(body));
    }),

    // The customer's side: the client secret is the credential, as it is for Polar's checkout page.
    defineEndpoint("/v1/checkouts/client/:client_secret", { method: "GET", params: z.object({ client_secret: z.string() }) }, async ({ params }) =>
      checkoutPublicJson(db, await checkoutJson(db, await bySecret(params.client_secret), publicUrl)),
    ),

    defineEndpoint("/v1/checkouts/client/:client_secret", { method: "PATCH", params: z.object({ client_secret: z.string() }), body: clientUpdateBody }, async ({ params, body }) =>
      checkoutPublicJson(db, await change(await bySecret(params.client_secret), body)),
    ),

    defineEndpoint("/v1/checkouts/client/:client_secret/confirm", { method: "POST", params: z.object({ client_secret: z.string() }), body: confirmBody }, async ({ params, body }) => {
      const { confirmation_token_id: confirmationTokenId, ...revision } = body;
      const checkout = await bySecret(params.client_secret);
      if (checkout.status !== "open") throw notOpen(checkout);
      // What the form sent with the confirmation is saved with it, in the same transaction.
      const changes = await revise(db, checkout, revision);
      await checkComplete(db, { ...checkout, ...changes }, confirmationTokenId);
      const confirmed = await confirmCheckout(billing, checkout.id, changes, confirmationTokenId);
      // Customer sessions (for the portal link after paying) arrive with the customer portal.
      return { ...(await checkoutPublicJson(db, confirmed)), customer_session_token: null };
    }),
  ];
}
