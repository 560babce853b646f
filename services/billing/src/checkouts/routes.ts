import { z } from "zod";
import { defineEndpoint, pageJson, reachable, type Endpoint } from "@tollgate/kit";
import { metadataFilters } from "../http/metadata.js";
import { confirmCheckout } from "./confirmation.js";
import { checkoutPublicJson } from "./output.js";
import { Checkout, CheckoutClientUpdateBody, CheckoutConfirmBody, CheckoutCreateBody, CheckoutList, CheckoutListQuery, CheckoutPublic, CheckoutPublicConfirmed, CheckoutUpdateBody } from "./schemas.js";
import { checkoutPage, createCheckout, findCheckout, reviseCheckout, settingsOf, shownCheckout } from "./service.js";
import type { Parts } from "../parts.js";

const TAG = "checkouts";

export function checkoutEndpoints(parts: Pick<Parts, "db" | "units" | "access" | "config"> & { wakePayments: () => void }): Endpoint[] {
  const { db, access } = parts;
  return [
    defineEndpoint("/v1/checkouts/", { method: "POST", status: 201, body: CheckoutCreateBody, response: Checkout, summary: "Create a checkout session", tag: TAG }, async ({ body, identity }) => {
      const { products: productIds, product_id: productId, product_price_id: priceId, amount, seats, min_seats: minSeats, max_seats: maxSeats, currency, customer_id: customerId, external_customer_id: externalCustomerId, ...details } = body;
      return createCheckout(parts, identity, { productIds, productId, priceId, amount, seats, minSeats, maxSeats, currency, customerId, externalCustomerId, revision: details, settings: settingsOf(body) });
    }),

    defineEndpoint(
      "/v1/checkouts/",
      {
        method: "GET",
        query: CheckoutListQuery,
        response: CheckoutList,
        summary: "List checkout sessions",
        tag: TAG,
      },
      async ({ query, identity, req }) => {
        const filter = { organizationIds: await access.organizationIds(identity, "checkouts:read"), filters: query, text: query.query, metadata: metadataFilters(req) };
        const { items, total } = await checkoutPage(parts, filter, { ...query, sort: query.sorting });
        return pageJson(items, total, query.limit);
      },
    ),

    defineEndpoint("/v1/checkouts/:id", { method: "GET", params: z.object({ id: z.string() }), response: Checkout, summary: "Get a checkout session", tag: TAG }, async ({ params, identity }) => (await shownCheckout(parts, { id: params.id }, identity)).json),

    defineEndpoint("/v1/checkouts/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: CheckoutUpdateBody, response: Checkout, summary: "Update a checkout session", tag: TAG }, async ({ params, body, identity }) => {
      // The change itself takes the checkout's lock and expires it if its time is up.
      const checkout = await reachable(access, identity, "checkouts:write", await findCheckout(db, params.id), "Checkout");
      return (await reviseCheckout(parts, { id: checkout.id }, body, settingsOf(body))).json;
    }),

    // The customer's side: the client secret is the credential, as it is for Polar's checkout page.
    defineEndpoint("/v1/checkouts/client/:client_secret", { method: "GET", params: z.object({ client_secret: z.string() }), response: CheckoutPublic, summary: "Get a checkout session by its client secret", tag: TAG }, async ({ params }) => {
      const { json, catalog } = await shownCheckout(parts, { client_secret: params.client_secret });
      return checkoutPublicJson(json, catalog);
    }),

    defineEndpoint(
      "/v1/checkouts/client/:client_secret",
      { method: "PATCH", params: z.object({ client_secret: z.string() }), body: CheckoutClientUpdateBody, response: CheckoutPublic, summary: "Update a checkout session by its client secret", tag: TAG },
      async ({ params, body }) => {
        const { json, catalog } = await reviseCheckout(parts, { client_secret: params.client_secret }, body);
        return checkoutPublicJson(json, catalog);
      },
    ),

    defineEndpoint(
      "/v1/checkouts/client/:client_secret/confirm",
      { method: "POST", params: z.object({ client_secret: z.string() }), body: CheckoutConfirmBody, response: CheckoutPublicConfirmed, summary: "Confirm and pay a checkout session by its client secret", tag: TAG },
      async ({ params, body }) => {
        const { confirmation_token_id: confirmationTokenId, ...revision } = body;
        const { json, catalog, customerSessionToken } = await confirmCheckout(parts, params.client_secret, revision, confirmationTokenId);
        return { ...checkoutPublicJson(json, catalog), customer_session_token: customerSessionToken };
      },
    ),
  ];
}
