import { z } from "zod";
import { defineEndpoint, pageJson, reachable, type Endpoint } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { CheckoutLink, CheckoutLinkCreateBody, CheckoutLinkList, CheckoutLinkListQuery, CheckoutLinkPrefill, CheckoutLinkUpdateBody } from "./schemas.js";
import { createLink, findCheckoutLink, openFromLink, pageOfCheckoutLinks, removeLink, reviseLink, shownLinks } from "./service.js";

const TAG = "checkout-links";

export function checkoutLinkEndpoints(parts: Pick<Parts, "db" | "units" | "access" | "config">): Endpoint[] {
  const { db, access, config } = parts;
  const publicUrl = config.PUBLIC_URL;

  return [
    defineEndpoint("/v1/checkout-links/", { method: "POST", status: 201, body: CheckoutLinkCreateBody, response: CheckoutLink, summary: "Create a checkout link", tag: TAG }, async ({ body, identity }) => createLink(parts, identity, body)),

    defineEndpoint(
      "/v1/checkout-links/",
      {
        method: "GET",
        query: CheckoutLinkListQuery,
        response: CheckoutLinkList,
        summary: "List checkout links",
        tag: TAG,
      },
      async ({ query, identity }) => {
        const { rows, total } = await pageOfCheckoutLinks(db, await access.organizationIds(identity, "checkout_links:read"), query, { ...query, sort: query.sorting });
        return pageJson(await shownLinks(db, rows, publicUrl), total, query.limit);
      },
    ),

    defineEndpoint("/v1/checkout-links/:id", { method: "GET", params: z.object({ id: z.string() }), response: CheckoutLink, summary: "Get a checkout link", tag: TAG }, async ({ params, identity }) => {
      const [json] = await shownLinks(db, [await reachable(access, identity, "checkout_links:read", await findCheckoutLink(db, params.id), "Checkout link")], publicUrl);
      return json;
    }),

    defineEndpoint("/v1/checkout-links/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: CheckoutLinkUpdateBody, response: CheckoutLink, summary: "Update a checkout link", tag: TAG }, async ({ params, body, identity }) =>
      reviseLink(parts, await reachable(access, identity, "checkout_links:write", await findCheckoutLink(db, params.id), "Checkout link"), body),
    ),

    defineEndpoint("/v1/checkout-links/:id", { method: "DELETE", status: 204, params: z.object({ id: z.string() }), summary: "Delete a checkout link", tag: TAG }, async ({ params, identity }) =>
      removeLink(db, await reachable(access, identity, "checkout_links:write", await findCheckoutLink(db, params.id), "Checkout link")),
    ),

    // Public: whoever follows the link gets a fresh checkout of their own.
    defineEndpoint(
      "/v1/checkout-links/:client_secret/redirect",
      { method: "GET", status: 303, params: z.object({ client_secret: z.string() }), query: CheckoutLinkPrefill, produces: "text/html", summary: "Open a fresh checkout from a link, and redirect to it", tag: TAG },
      async ({ params, query, res }) => {
        const checkout = await openFromLink(parts, params.client_secret, query);
        res.redirect(303, checkout.json.url);
      },
    ),
  ];
}
