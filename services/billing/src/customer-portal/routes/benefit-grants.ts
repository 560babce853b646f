import { z } from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { CustomerBenefitGrant, CustomerBenefitGrantList, CustomerBenefitGrantListQuery, CustomerBenefitGrantUpdate } from "../schemas.js";
import { customerGrant, customerGrantPage, updateCustomerGrant } from "../service.js";
import type { Parts } from "../../parts.js";

const TAG = "customer_portal";
const byId = z.object({ id: z.string() });

/**
 * The customer's benefit grants in the portal (Polar's CustomerBenefitGrant): what each purchase
 * gave them, what was revoked, and which grants wait for something from them.
 */
export function portalBenefitGrantEndpoints({ db }: Pick<Parts, "db">): Endpoint[] {
  return [
    defineEndpoint("/v1/customer-portal/benefit-grants/", { method: "GET", query: CustomerBenefitGrantListQuery, response: CustomerBenefitGrantList, summary: "List the customer's benefit grants", tag: TAG }, async ({ query, identity }) =>
      customerGrantPage(db, identity, query),
    ),
    defineEndpoint("/v1/customer-portal/benefit-grants/:id", { method: "GET", params: byId, response: CustomerBenefitGrant, summary: "Get one of the customer's benefit grants", tag: TAG }, async ({ params, identity }) =>
      customerGrant(db, identity, params.id),
    ),
    defineEndpoint(
      "/v1/customer-portal/benefit-grants/:id",
      { method: "PATCH", params: byId, body: CustomerBenefitGrantUpdate, response: CustomerBenefitGrant, summary: "Update one of the customer's benefit grants", tag: TAG },
      async ({ params, body, identity }) => updateCustomerGrant(db, identity, params.id, body),
    ),
  ];
}
