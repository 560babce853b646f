import { z } from "zod";
import { defineEndpoint, invalidField, notFound, pageJson, pageOf, paging, randomId, reachable, repeated, sorting, whereAnyOf, type Endpoint, type ValidationError, webUrl } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import { metadataInput } from "../api/metadata.js";
import { readCatalog } from "../checkouts/catalog.js";
import { openCheckout } from "../checkouts/open.js";
import { findDiscount } from "../discounts/discounts.sql.js";
import { products } from "../products/products.sql.js";
import { checkoutLinks, insertCheckoutLink, updateCheckoutLink, type CheckoutLinkRow, type CheckoutLinkSettings } from "./checkout-links.sql.js";
import { checkoutLinksJson } from "./output.js";
import { CheckoutLink, CheckoutLinkList } from "./schemas.js";

const settings = {
  label: z.string().max(256).nullish(),
  allow_discount_codes: z.boolean().nullish(),
  require_billing_address: z.boolean().nullish(),
  discount_id: z.string().nullish(),
  success_url: webUrl().nullish(),
  return_url: webUrl().nullish(),
  metadata: metadataInput.optional(),
  trial_interval: z.null().optional(),
  trial_interval_count: z.null().optional(),
};
/** Polar's three ways to name what a link sells: products, one product, or one of its prices (its product). */
const createBody = z.object({
  ...settings,
  payment_processor: z.literal("stripe").default("stripe"),
  products: z.array(z.string()).min(1).optional(),
  product_id: z.string().optional(),
  product_price_id: z.string().optional(),
});
const updateBody = z.object({ ...settings, products: z.array(z.string()).min(1).nullish() });
/** What following a link may fill in on the checkout it opens. */
const prefill = z.object({ customer_email: z.email().optional(), customer_name: z.string().max(256).optional(), discount_code: z.string().optional() });

const SORTABLE = { created_at: "created_at", label: "label" } as const;
const TAG = "checkout-links";

export function checkoutLinkEndpoints(billing: Billing): Endpoint[] {
  const { db, access, config } = billing;
  const publicUrl = config.PUBLIC_URL;
  const showOne = async (link: CheckoutLinkRow) => (await checkoutLinksJson(db, [link], publicUrl))[0];

  /** The link's products and discount must be the seller's own, the products not archived. */
  const checked = async (organizationId: string, productIds: string[], discountId: string | null | undefined) => {
    const found = await products(db).where({ organization_id: organizationId, is_archived: false }).whereIn("id", productIds);
    const missing = productIds.findIndex((id) => !found.some((product) => product.id === id));
    if (missing >= 0) throw invalidField(["products", missing], "Product not found or archived", productIds[missing]);
    if (discountId) {
      const discount = await findDiscount(db, discountId);
      if (discount?.organization_id !== organizationId) throw invalidField(["discount_id"], "Discount not found", discountId);
    }
  };

  return [
    defineEndpoint("/v1/checkout-links/", { method: "POST", status: 201, body: createBody, response: CheckoutLink, summary: "Create a checkout link", tag: TAG }, async ({ body, identity }) => {
      let productIds = body.products ?? (body.product_id ? [body.product_id] : []);
      if (body.product_price_id) {
        const price = await db("product_prices").where({ id: body.product_price_id }).first<{ product_id: string } | undefined>("product_id");
        if (!price) throw invalidField(["product_price_id"], "Price not found", body.product_price_id);
        productIds = [price.product_id];
      }
      if (productIds.length === 0) throw invalidField(["products"], "Name at least one product", null);
      const owner = await products(db).where({ id: productIds[0] }).first();
      if (!owner || !(await access.allows(identity, "checkout_links:write", owner.organization_id))) throw invalidField(["products", 0], "Product not found or archived", productIds[0]);
      await checked(owner.organization_id, productIds, body.discount_id);
      const link = await insertCheckoutLink(db, {
        id: randomId(32),
        organization_id: owner.organization_id,
        client_secret: `polar_cl_${randomId(40)}`,
        product_ids: productIds,
        label: body.label ?? null,
        allow_discount_codes: body.allow_discount_codes ?? true,
        require_billing_address: body.require_billing_address ?? false,
        discount_id: body.discount_id ?? null,
        success_url: body.success_url ?? null,
        return_url: body.return_url ?? null,
        metadata: body.metadata ?? {},
      });
      return showOne(link);
    }),

    defineEndpoint(
      "/v1/checkout-links/",
      {
        method: "GET",
        query: z.object({ ...paging, organization_id: repeated(z.string()), sorting: sorting(Object.keys(SORTABLE) as (keyof typeof SORTABLE)[], "-created_at") }),
        response: CheckoutLinkList,
        summary: "List checkout links",
        tag: TAG,
      },
      async ({ query, identity }) => {
        const found = checkoutLinks(db).whereIn("organization_id", await access.organizationIds(identity, "checkout_links:read"));
        whereAnyOf(found, query, ["organization_id"]);
        const { rows, total } = await pageOf<CheckoutLinkRow, keyof typeof SORTABLE>(found, { ...query, sort: query.sorting, columns: SORTABLE, table: "checkout_links" });
        return pageJson(await checkoutLinksJson(db, rows, publicUrl), total, query.limit);
      },
    ),

    defineEndpoint("/v1/checkout-links/:id", { method: "GET", params: z.object({ id: z.string() }), response: CheckoutLink, summary: "Get a checkout link", tag: TAG }, async ({ params, identity }) =>
      showOne(await reachable(access, identity, "checkout_links:read", await checkoutLinks(db).where({ id: params.id }).first(), "Checkout link")),
    ),

    defineEndpoint("/v1/checkout-links/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: updateBody, response: CheckoutLink, summary: "Update a checkout link", tag: TAG }, async ({ params, body, identity }) => {
      const link = await reachable(access, identity, "checkout_links:write", await checkoutLinks(db).where({ id: params.id }).first(), "Checkout link");
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
      await checked(link.organization_id, changes.product_ids ?? link.product_ids, changes.discount_id);
      return showOne(await updateCheckoutLink(db, link.id, changes));
    }),

    defineEndpoint("/v1/checkout-links/:id", { method: "DELETE", status: 204, params: z.object({ id: z.string() }), summary: "Delete a checkout link", tag: TAG }, async ({ params, identity }) => {
      const link = await reachable(access, identity, "checkout_links:write", await checkoutLinks(db).where({ id: params.id }).first(), "Checkout link");
      await updateCheckoutLink(db, link.id, { deleted_at: new Date() });
    }),

    // Public: whoever follows the link gets a fresh checkout of their own.
    defineEndpoint(
      "/v1/checkout-links/:client_secret/redirect",
      { method: "GET", status: 303, params: z.object({ client_secret: z.string() }), query: prefill, produces: "text/html", summary: "Open a fresh checkout from a link, and redirect to it", tag: TAG },
      async ({ params, query, res }) => {
        const link = await checkoutLinks(db).where({ client_secret: params.client_secret }).first();
        if (!link) throw notFound("Checkout link");
        const catalog = await readCatalog(db, link.product_ids);
        const open = (revision: object) =>
          openCheckout(billing, catalog, {
            productIds: link.product_ids.filter((id) => catalog.products.get(id)?.organization_id === link.organization_id),
            revision: { ...revision, discount_id: link.discount_id },
            settings: { allow_discount_codes: link.allow_discount_codes, require_billing_address: link.require_billing_address, success_url: link.success_url, return_url: link.return_url, metadata: link.metadata },
          });
        // A prefill that does not hold (a spent discount code) is dropped rather than keep the buyer out.
        const checkout = await open(query).catch((error: ValidationError) => (Object.keys(query).length > 0 ? open({}) : Promise.reject(error)));
        res.redirect(303, checkout.json.url);
      },
    ),
  ];
}
