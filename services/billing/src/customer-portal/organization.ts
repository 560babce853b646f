import { z } from "zod";
import { defineEndpoint, notFound, type Endpoint, type Knex } from "@tollgate/kit";
import { findSellerBySlug } from "../organizations/organizations.sql.js";
import { sellerSummaryJson } from "../organizations/output.js";
import { productJson, publicProductJson } from "../products/output.js";
import { productsWithParts, publicProductIds } from "../products/products.sql.js";
import { CustomerOrganizationData } from "./schemas.js";

/**
 * What the customer portal shows of a seller before anyone signs in (Polar's CustomerOrganizationData):
 * who they are, and the products they sell in public, each benefit named but not what it grants.
 */
export function portalOrganizationEndpoints({ db, config }: { db: Knex; config: { PUBLIC_URL: string } }): Endpoint[] {
  return [
    defineEndpoint(
      "/v1/customer-portal/organizations/:slug",
      { method: "GET", params: z.object({ slug: z.string() }), response: CustomerOrganizationData, summary: "Get a seller and what it sells in public", tag: "customer_portal" },
      async ({ params }) => {
        const seller = await findSellerBySlug(db, params.slug);
        if (!seller) throw notFound("Organization");
        const shown = (await productsWithParts(db, await publicProductIds(db, seller.id))).map((product) => {
          const shown = publicProductJson(productJson(product, config.PUBLIC_URL));
          return { ...shown, prices: shown.prices.filter((price) => !price.is_archived) };
        });
        return { organization: sellerSummaryJson(seller), products: shown };
      },
    ),
  ];
}
