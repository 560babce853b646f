import { z } from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { customerOrganizationJson } from "../output.js";
import { CustomerOrganizationData } from "../schemas.js";
import { storefront } from "../service.js";
import type { Parts } from "../../parts.js";

/** What the customer portal shows of a seller before anyone signs in (Polar's CustomerOrganizationData). */
export function portalOrganizationEndpoints({ db, config }: Pick<Parts, "db" | "config">): Endpoint[] {
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
