import { z } from "zod";
import { defineEndpoint, type Endpoint, type Knex } from "@tollgate/kit";
import { customerOrganizationJson } from "../output.js";
import { CustomerOrganizationData } from "../schemas.js";
import { storefront } from "../service.js";

/** What the customer portal shows of a seller before anyone signs in (Polar's CustomerOrganizationData). */
export function portalOrganizationEndpoints({ db, config }: { db: Knex; config: { PUBLIC_URL: string } }): Endpoint[] {
  return [
    defineEndpoint(
      "/v1/customer-portal/organizations/:slug",
      { method: "GET", params: z.object({ slug: z.string() }), response: CustomerOrganizationData, summary: "Get a seller and what it sells in public", tag: "customer_portal" },
      async ({ params }) => {
        const { seller, products } = await storefront(db, params.slug);
        return customerOrganizationJson(seller, products, config.PUBLIC_URL);
      },
    ),
  ];
}
