import { z } from "zod";
import { defineEndpoint, HttpError, invalidField, pageJson, paging, repeated, sorting, type Endpoint, type Knex } from "@tollgate/kit";
import { CUSTOMER_GRANT_SORTABLE, findAnyBenefit, findCustomersGrant, pageOfCustomersGrants } from "../benefits/benefits.sql.js";
import { BENEFIT_TYPES } from "../benefits/properties.js";
import { orderIdsOfCheckouts } from "../orders/orders.sql.js";
import { subscriptionIdsOfCheckouts } from "../subscriptions/subscriptions.sql.js";
import { customerOf, mine } from "./portal.js";
import { CustomerBenefitGrant, CustomerBenefitGrantList, CustomerBenefitGrantUpdate } from "./schemas.js";
import { customerGrants } from "./service.js";

/** Benefits the customer must connect an account for; Tollgate has no such connections yet. */
const ACCOUNT_BENEFITS = new Set(["discord", "github_repository"]);
const TAG = "customer_portal";

/**
 * The customer's benefit grants in the portal (Polar's CustomerBenefitGrant): what each purchase
 * gave them, what was revoked, and which grants wait for something from them.
 */
export function benefitGrantEndpoints({ db }: { db: Knex }): Endpoint[] {
  const ownGrant = async (customerId: string, id: string) => mine(await findCustomersGrant(db, customerId, id), "Benefit grant");

  return [
    defineEndpoint(
      "/v1/customer-portal/benefit-grants/",
      {
        method: "GET",
        query: z.object({
          ...paging,
          query: z.string().optional(),
          type: repeated(z.enum(BENEFIT_TYPES)),
          benefit_id: repeated(z.string()),
          checkout_id: repeated(z.string()),
          order_id: repeated(z.string()),
          subscription_id: repeated(z.string()),
          sorting: sorting(Object.keys(CUSTOMER_GRANT_SORTABLE) as (keyof typeof CUSTOMER_GRANT_SORTABLE)[], "-granted_at"),
        }),
        response: CustomerBenefitGrantList,
        summary: "List the customer's benefit grants",
        tag: TAG,
      },
      async ({ query, identity }) => {
        const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
        const checkoutIds = query.checkout_id;
        const filter = {
          text: query.query,
          types: query.type,
          benefitIds: query.benefit_id,
          orderIds: query.order_id,
          subscriptionIds: query.subscription_id,
          fromCheckouts: checkoutIds && { orderIds: orderIdsOfCheckouts(db, checkoutIds), subscriptionIds: subscriptionIdsOfCheckouts(db, checkoutIds) },
        };
        const { rows, total } = await pageOfCustomersGrants(db, customerId, filter, { ...query, sort: query.sorting });
        return pageJson(await customerGrants(db, customerId, organizationId, rows), total, query.limit);
      },
    ),
    defineEndpoint("/v1/customer-portal/benefit-grants/:id", { method: "GET", params: z.object({ id: z.string() }), response: CustomerBenefitGrant, summary: "Get one of the customer's benefit grants", tag: TAG }, async ({ params, identity }) => {
      const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
      const [json] = await customerGrants(db, customerId, organizationId, [await ownGrant(customerId, params.id)]);
      return json;
    }),
    defineEndpoint(
      "/v1/customer-portal/benefit-grants/:id",
      { method: "PATCH", params: z.object({ id: z.string() }), body: CustomerBenefitGrantUpdate, response: CustomerBenefitGrant, summary: "Update one of the customer's benefit grants", tag: TAG },
      async ({ params, body, identity }) => {
        const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
        const grant = await ownGrant(customerId, params.id);
        const benefit = await findAnyBenefit(db, grant.benefit_id);
        if (benefit && body.benefit_type !== benefit.type) throw invalidField(["benefit_type"], `This grant is for a ${benefit.type} benefit.`, body.benefit_type);
        if (ACCOUNT_BENEFITS.has(body.benefit_type) && body.properties?.account_id) {
          // Polar would now grant on the connected account; there are no account connections to name yet.
          throw new HttpError(403, "NotPermitted", "Connecting a Discord or GitHub account is not offered yet, so this benefit cannot be granted here.");
        }
        // Nothing else about a grant is the customer's to change.
        const [json] = await customerGrants(db, customerId, organizationId, [grant]);
        return json;
      },
    ),
  ];
}
