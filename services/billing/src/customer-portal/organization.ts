import { z } from "zod";
import { defineEndpoint, notFound, type Endpoint } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import { sellers } from "../organizations/organizations.sql.js";
import { sellerSummaryJson } from "../organizations/output.js";
import { productWithPartsJson, publicProductJson } from "../products/output.js";
import { products, productsWithParts } from "../products/products.sql.js";
import { CustomerOrganizationData } from "./schemas.js";

/**
 * What the customer portal shows of a seller before anyone signs in (Polar's CustomerOrganizationData):
 * who they are, and the products they sell in public, each benefit named but not what it grants.
 */
export function portalOrganizationEndpoints(billing: Billing): Endpoint[] {
  const { db, config } = billing;
  return [
    defineEndpoint(
      "/v1/customer-portal/organizations/:slug",
      { method: "GET", params: z.object({ slug: z.string() }), response: CustomerOrganizationData, summary: "Get a seller and what it sells in public", tag: "customer_portal" },
      async ({ params }) => {
        const seller = await sellers(db).where({ slug: params.slug }).first();
        if (!seller) throw notFound("Organization");
        const offered = await products(db).where({ organization_id: seller.id, visibility: "public", is_archived: false }).orderBy("created_at").select("id");
        const shown = (await productsWithParts(db, offered.map((product) => product.id))).map((product) => {
          const shown = publicProductJson(productWithPartsJson(product, config.PUBLIC_URL));
          return { ...shown, prices: shown.prices.filter((price) => !price.is_archived) };
        });
        return { organization: sellerSummaryJson(seller), products: shown };
      },
    ),
  ];
}
