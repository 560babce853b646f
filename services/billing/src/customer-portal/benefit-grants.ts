import { z } from "zod";
import { defineEndpoint, HttpError, invalidField, notFound, pageJson, pageOf, paging, repeated, sorting, type Endpoint, type Knex } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import type { BenefitRow } from "../benefits/benefits.sql.js";
import type { BenefitGrantRow } from "../benefits/grants.js";
import { benefitJson } from "../benefits/output.js";
import { BENEFIT_TYPES, subscriberProperties } from "../benefits/properties.js";
import { findCustomer } from "../customers/customers.sql.js";
import { customerOf, mine, portalOrganization } from "./portal.js";
import { portalCustomerJson } from "./profile.js";
import { CustomerBenefitGrant, CustomerBenefitGrantList } from "./schemas.js";

// Grants are made in the order of the product's benefits, so creation order is that order.
const SORTABLE = {
  granted_at: "benefit_grants.granted_at",
  type: "benefits.type",
  organization: "benefits.organization_id",
  product_benefit: "benefit_grants.created_at",
} as const;

/** Benefits the customer must connect an account for; Tollgate has no such connections yet. */
const ACCOUNT_BENEFITS = new Set(["discord", "github_repository"]);
const TAG = "customer_portal";

const grantUpdate = z.object({
  benefit_type: z.enum(BENEFIT_TYPES),
  properties: z.object({ account_id: z.string().nullish() }).optional(),
});

/** The customer's grants as the portal lists them: the benefit as a subscriber sees it, with its seller. */
async function grantsJson(db: Knex, customerId: string, organizationId: string, grants: BenefitGrantRow[]) {
  const [customer, organization, benefits] = await Promise.all([
    findCustomer(db, customerId),
    portalOrganization(db, organizationId),
    db<BenefitRow>("benefits").whereIn("id", grants.map((grant) => grant.benefit_id)),
  ]);
  if (!customer) throw notFound("Customer");
  const benefitById = new Map(benefits.map((benefit) => [benefit.id, benefit]));
  return grants.flatMap((grant) => {
    const benefit = benefitById.get(grant.benefit_id);
    if (!benefit) return [];
    return [
      {
        id: grant.id,
        created_at: grant.created_at,
        modified_at: grant.modified_at,
        granted_at: grant.granted_at,
        revoked_at: grant.revoked_at,
        is_granted: grant.granted_at !== null && grant.revoked_at === null,
        is_revoked: grant.revoked_at !== null,
        customer_id: grant.customer_id,
        member_id: null,
        benefit_id: grant.benefit_id,
        subscription_id: grant.subscription_id,
        order_id: grant.order_id,
        error: grant.error,
        customer: portalCustomerJson(customer),
        benefit: { ...benefitJson(benefit), organization, properties: subscriberProperties(benefit.type, benefit.properties) },
        properties: grant.properties,
      },
    ];
  });
}

/**
 * The customer's benefit grants in the portal (Polar's CustomerBenefitGrant): what each purchase
 * gave them, what was revoked, and which grants wait for something from them.
 */
export function benefitGrantEndpoints(billing: Billing): Endpoint[] {
  const { db } = billing;
  const grantsOf = (customerId: string) =>
    db<BenefitGrantRow>("benefit_grants").join("benefits", "benefits.id", "benefit_grants.benefit_id").where("benefit_grants.customer_id", customerId).select<BenefitGrantRow[]>("benefit_grants.*");
  const ownGrant = async (customerId: string, id: string) => mine(await grantsOf(customerId).where("benefit_grants.id", id).first(), "Benefit grant");

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
          sorting: sorting(Object.keys(SORTABLE) as (keyof typeof SORTABLE)[], "-granted_at"),
        }),
        response: CustomerBenefitGrantList,
        summary: "List the customer's benefit grants",
        tag: TAG,
      },
      async ({ query, identity }) => {
        const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
        const found = grantsOf(customerId);
        if (query.query) void found.whereILike("benefits.description", `%${query.query}%`);
        if (query.type) void found.whereIn("benefits.type", query.type);
        if (query.benefit_id) void found.whereIn("benefit_grants.benefit_id", query.benefit_id);
        if (query.order_id) void found.whereIn("benefit_grants.order_id", query.order_id);
        if (query.subscription_id) void found.whereIn("benefit_grants.subscription_id", query.subscription_id);
        if (query.checkout_id) {
          const checkoutIds = query.checkout_id;
          void found.where((fromCheckout) =>
            void fromCheckout
              .whereIn("benefit_grants.order_id", db("orders").select("id").whereIn("checkout_id", checkoutIds))
              .orWhereIn("benefit_grants.subscription_id", db("subscriptions").select("id").whereIn("checkout_id", checkoutIds)),
          );
        }
        const { rows, total } = await pageOf<BenefitGrantRow, keyof typeof SORTABLE>(found, { ...query, sort: query.sorting, columns: SORTABLE, table: "benefit_grants" });
        return pageJson(await grantsJson(db, customerId, organizationId, rows), total, query.limit);
      },
    ),
    defineEndpoint("/v1/customer-portal/benefit-grants/:id", { method: "GET", params: z.object({ id: z.string() }), response: CustomerBenefitGrant, summary: "Get one of the customer's benefit grants", tag: TAG }, async ({ params, identity }) => {
      const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
      const [json] = await grantsJson(db, customerId, organizationId, [await ownGrant(customerId, params.id)]);
      return json;
    }),
    defineEndpoint(
      "/v1/customer-portal/benefit-grants/:id",
      { method: "PATCH", params: z.object({ id: z.string() }), body: grantUpdate, response: CustomerBenefitGrant, summary: "Update one of the customer's benefit grants", tag: TAG },
      async ({ params, body, identity }) => {
        const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
        const grant = await ownGrant(customerId, params.id);
        const benefit = await db<BenefitRow>("benefits").where({ id: grant.benefit_id }).first();
        if (benefit && body.benefit_type !== benefit.type) throw invalidField(["benefit_type"], `This grant is for a ${benefit.type} benefit.`, body.benefit_type);
        if (ACCOUNT_BENEFITS.has(body.benefit_type) && body.properties?.account_id) {
          // Polar would now grant on the connected account; there are no account connections to name yet.
          throw new HttpError(403, "NotPermitted", "Connecting a Discord or GitHub account is not offered yet, so this benefit cannot be granted here.");
        }
        // Nothing else about a grant is the customer's to change.
        const [json] = await grantsJson(db, customerId, organizationId, [grant]);
        return json;
      },
    ),
  ];
}
