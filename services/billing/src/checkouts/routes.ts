import { z } from "zod";
import { defineEndpoint, invalidField, notFound, pageJson, pageOf, paging, reachable, repeated, sorting, whereAnyOf, type Endpoint, webUrl } from "@tollgate/kit";
import { priceAmount } from "../products/prices.js";
import type { IdentityClaims } from "@tollgate/proto";
import type { Billing } from "../billing.js";
import { addressInput } from "../api/address.js";
import { metadataFilters, metadataInput, whereMetadata } from "../api/metadata.js";
import { CustomFieldData } from "../custom-fields/schemas.js";
import { catalogOf, checkoutWithCatalog, offerOf, readCatalog } from "./catalog.js";
import { changedCheckout, checkouts, findCheckout, type CheckoutRow } from "./checkouts.sql.js";
import { confirmCheckout } from "./confirm.js";
import { announceCheckout, changeOpenCheckout, current } from "./lifecycle.js";
import { checkoutJson, checkoutPublicJson } from "./output.js";
import { openCheckout } from "./open.js";
import { sellerClock } from "../test-clock/clock.js";
import { revise, type Revision } from "./revise.js";
import { Checkout, CheckoutList, CheckoutPublic, CheckoutPublicConfirmed } from "./schemas.js";

const email = z.email().transform((value) => value.toLowerCase());

/** What both the seller and the customer may set about the buyer. */
const customerDetails = {
  customer_name: z.string().max(256).nullish(),
  customer_email: email.nullish(),
  customer_billing_name: z.string().max(256).nullish(),
  customer_billing_address: addressInput.nullish(),
  customer_tax_id: z.string().max(64).nullish(),
  is_business_customer: z.boolean().nullish(),
  locale: z.string().max(16).nullish(),
  custom_field_data: CustomFieldData.optional(),
  product_id: z.string().nullish(),
  product_price_id: z.string().nullish(),
  amount: priceAmount.nullish(),
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
  success_url: webUrl().nullish(),
  return_url: webUrl().nullish(),
  embed_origin: webUrl().nullish(),
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
const TAG = "checkouts";

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

  /** A checkout as it stands now and as shown, read with its catalog: one left open past its time is expired first. */
  const shown = async (which: Pick<CheckoutRow, "id"> | Pick<CheckoutRow, "client_secret">, identity?: IdentityClaims) => {
    const read = await checkoutWithCatalog(db, which, false);
    if (!read) throw notFound("Checkout");
    if (identity) await reachable(access, identity, "checkouts:read", read.checkout, "Checkout");
    const { catalog } = read;
    const checkout = await current(billing, read.checkout, sellerClock(offerOf(catalog, read.checkout).seller));
    return { json: checkoutJson(checkout, catalog, publicUrl), catalog };
  };

  /** Applies a revision (and the seller's settings) to an open checkout and announces it. */
  const change = (which: Pick<CheckoutRow, "id"> | Pick<CheckoutRow, "client_secret">, revision: Revision, settings: Partial<CheckoutRow> = {}) =>
    changeOpenCheckout(billing, which, async (checkout, catalog, changes, trx) =>
      announceCheckout(billing, changes, changedCheckout(changes, checkout, { ...(await revise(trx, checkout, revision, catalog)), ...settings }), catalog),
    );

  return [
    defineEndpoint("/v1/checkouts/", { method: "POST", status: 201, body: createBody, response: Checkout, summary: "Create a checkout session", tag: TAG }, async ({ body, identity }) => {
      const catalog = await readCatalog(db, body.products);
      const offered = body.products.map((id) => catalog.products.get(id));
      const missing = offered.findIndex((product) => !product);
      if (missing >= 0) throw invalidField(["products", missing], "Product not found", body.products[missing]);
      const organizationId = offered[0]?.organization_id ?? "";
      for (const [index, product] of offered.entries()) {
        if (product?.organization_id !== organizationId || !(await access.allows(identity, "checkouts:write", organizationId))) throw invalidField(["products", index], "Product not found", body.products[index]);
      }
      const { products: productIds, product_id: productId, product_price_id: priceId, amount, currency, customer_id: customerId, external_customer_id: externalCustomerId, ...details } = body;
      return (await openCheckout(billing, catalog, { productIds, productId, priceId, amount, currency, customerId, externalCustomerId, revision: details, settings: settingsOf(body) })).json;
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
        response: CheckoutList,
        summary: "List checkout sessions",
        tag: TAG,
      },
      async ({ query, identity, req }) => {
        const found = checkouts(db).whereIn("organization_id", await access.organizationIds(identity, "checkouts:read"));
        whereAnyOf(found, query, ["organization_id", "product_id", "customer_id", "status"]);
        if (query.query) void found.where((match) => void match.whereILike("customer_email", `%${query.query}%`).orWhereILike("customer_name", `%${query.query}%`));
        whereMetadata(found, "metadata", metadataFilters(req));
        const { rows, total } = await pageOf<CheckoutRow, keyof typeof SORTABLE>(found, { ...query, sort: query.sorting, columns: SORTABLE, table: "checkouts" });
        // The page's catalog holds each seller, and so each seller's clock.
        const catalog = await catalogOf(db, rows);
        const shownRows = await Promise.all(rows.map(async (row) => current(billing, row, sellerClock(offerOf(catalog, row).seller))));
        return pageJson(shownRows.map((row) => checkoutJson(row, catalog, publicUrl)), total, query.limit);
      },
    ),

    defineEndpoint("/v1/checkouts/:id", { method: "GET", params: z.object({ id: z.string() }), response: Checkout, summary: "Get a checkout session", tag: TAG }, async ({ params, identity }) => (await shown({ id: params.id }, identity)).json),

    defineEndpoint("/v1/checkouts/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: updateBody, response: Checkout, summary: "Update a checkout session", tag: TAG }, async ({ params, body, identity }) => {
      // The change itself takes the checkout's lock and expires it if its time is up.
      const checkout = await reachable(access, identity, "checkouts:write", await findCheckout(db, params.id), "Checkout");
      return (await change({ id: checkout.id }, body, settingsOf(body))).json;
    }),

    // The customer's side: the client secret is the credential, as it is for Polar's checkout page.
    defineEndpoint("/v1/checkouts/client/:client_secret", { method: "GET", params: z.object({ client_secret: z.string() }), response: CheckoutPublic, summary: "Get a checkout session by its client secret", tag: TAG }, async ({ params }) => {
      const { json, catalog } = await shown({ client_secret: params.client_secret });
      return checkoutPublicJson(json, catalog);
    }),

    defineEndpoint(
      "/v1/checkouts/client/:client_secret",
      { method: "PATCH", params: z.object({ client_secret: z.string() }), body: clientUpdateBody, response: CheckoutPublic, summary: "Update a checkout session by its client secret", tag: TAG },
      async ({ params, body }) => {
        const { json, catalog } = await change({ client_secret: params.client_secret }, body);
        return checkoutPublicJson(json, catalog);
      },
    ),

    defineEndpoint(
      "/v1/checkouts/client/:client_secret/confirm",
      { method: "POST", params: z.object({ client_secret: z.string() }), body: confirmBody, response: CheckoutPublicConfirmed, summary: "Confirm and pay a checkout session by its client secret", tag: TAG },
      async ({ params, body }) => {
        const { confirmation_token_id: confirmationTokenId, ...revision } = body;
        const { json, catalog } = await confirmCheckout(billing, params.client_secret, revision, confirmationTokenId);
        // Customer sessions (for the portal link after paying) arrive with the customer portal.
        return { ...checkoutPublicJson(json, catalog), customer_session_token: null };
      },
    ),
  ];
}
