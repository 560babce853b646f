import { z } from "zod";
import { defineEndpoint, type Endpoint, invalidField, notFound, pageJson, pageOf, paging, sorting, pgInteger, webUrl } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import { emitBillingEvent } from "../events.js";
import { sellerJson, subscriptionSettingsOf } from "./output.js";
import { findSeller, sellers, updateSeller, type SellerChanges, type SellerRow } from "./organizations.sql.js";
import { Organization, OrganizationCustomerEmailSettings, OrganizationCustomerPortalSettings, OrganizationFeatureSettings, OrganizationList, SOCIAL_PLATFORMS } from "./schemas.js";

const url = webUrl();

const organizationUpdate = z.object({
  name: z.string().nullish(),
  avatar_url: url.nullish(),
  email: z.email().nullish(),
  website: url.nullish(),
  socials: z.array(z.object({ platform: z.enum(SOCIAL_PLATFORMS), url })).nullish(),
  details: z.looseObject({ switching: z.boolean().optional() }).nullish(),
  country: z.string().length(2).nullish(),
  /*
   * Settings take the fields the organization shows, each one optional. Others (flags of a newer SDK)
   * are dropped rather than stored: the organization could not show them back.
   */
  feature_settings: z.object(OrganizationFeatureSettings.shape).partial().nullish(),
  subscription_settings: z
    .object({
      allow_multiple_subscriptions: z.boolean().optional(),
      allow_customer_updates: z.boolean().optional(),
      proration_behavior: z.enum(["invoice", "prorate"]).optional(),
      benefit_revocation_grace_period: pgInteger().min(0).optional(),
      prevent_trial_abuse: z.boolean().optional(),
    })
    .nullish(),
  notification_settings: z.object({ new_order: z.boolean(), new_subscription: z.boolean() }).partial().nullish(),
  customer_email_settings: z.object(OrganizationCustomerEmailSettings.shape).partial().nullish(),
  customer_portal_settings: z.object(OrganizationCustomerPortalSettings.shape).partial().nullish(),
  default_presentment_currency: z.string().length(3).nullish(),
  default_tax_behavior: z.enum(["location", "inclusive", "exclusive"]).nullish(),
});

const SORTABLE = { created_at: "created_at", slug: "slug", name: "name" } as const;
const TAG = "organizations";

export function organizationEndpoints(billing: Billing): Endpoint[] {
  const { db, access, outbox } = billing;
  /** The seller, if the caller may act on it with `scope`. */
  const reachableSeller = async (identity: Parameters<typeof access.allows>[0], scope: "organizations:read" | "organizations:write", id: string): Promise<SellerRow> => {
    const seller = (await access.allows(identity, scope, id)) ? await findSeller(db, id) : undefined;
    if (!seller) throw notFound("Organization");
    return seller;
  };
  return [
    defineEndpoint(
      "/v1/organizations/",
      {
        method: "GET",
        query: z.object({ ...paging, slug: z.string().optional(), sorting: sorting(Object.keys(SORTABLE) as (keyof typeof SORTABLE)[], "created_at") }),
        response: OrganizationList,
        summary: "List organizations",
        tag: TAG,
      },
      async ({ query, identity }) => {
        const reachable = await access.organizationIds(identity, "organizations:read");
        const found = sellers(db).whereIn("id", reachable);
        if (query.slug) void found.where({ slug: query.slug });
        const { rows, total } = await pageOf<SellerRow, keyof typeof SORTABLE>(found, { ...query, sort: query.sorting, columns: SORTABLE, table: "organizations" });
        return pageJson(rows.map(sellerJson), total, query.limit);
      },
    ),

    defineEndpoint("/v1/organizations/:id", { method: "GET", params: z.object({ id: z.string() }), response: Organization, summary: "Get an organization", tag: TAG }, async ({ params, identity }) =>
      sellerJson(await reachableSeller(identity, "organizations:read", params.id)),
    ),

    defineEndpoint("/v1/organizations/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: organizationUpdate, response: Organization, summary: "Update an organization", tag: TAG }, async ({ params, body, identity }) => {
      const seller = await reachableSeller(identity, "organizations:write", params.id);
      // The organization service owns the name (better-auth's organization update changes it).
      if (body.name !== undefined && body.name !== null && body.name !== seller.name) {
        throw invalidField(["name"], "Rename the organization through the organization settings (/api/auth/organization/update)", body.name);
      }
      const changes: SellerChanges = {};
      for (const column of ["avatar_url", "email", "website", "country"] as const) if (body[column] !== undefined) changes[column] = body[column];
      if (body.details !== undefined) changes.details = body.details;
      if (body.socials !== undefined) changes.socials = body.socials ?? [];
      if (body.details) changes.details_submitted_at = new Date();
      if (body.default_presentment_currency) changes.default_presentment_currency = body.default_presentment_currency.toLowerCase();
      if (body.default_tax_behavior) changes.default_tax_behavior = body.default_tax_behavior;
      if (body.feature_settings) changes.feature_settings = { ...seller.feature_settings, ...body.feature_settings };
      if (body.subscription_settings) changes.subscription_settings = { ...subscriptionSettingsOf(seller), ...body.subscription_settings };
      if (body.notification_settings) changes.notification_settings = { ...seller.notification_settings, ...body.notification_settings };
      if (body.customer_email_settings) changes.customer_email_settings = { ...seller.customer_email_settings, ...body.customer_email_settings };
      if (body.customer_portal_settings) changes.customer_portal_settings = { ...seller.customer_portal_settings, ...body.customer_portal_settings };
      return db.transaction(async (trx) => {
        const updated = await updateSeller(trx, seller.id, changes);
        if (!updated) throw notFound("Organization");
        const json = sellerJson(updated);
        await emitBillingEvent(outbox, trx, "organization.updated", updated.id, json);
        return json;
      });
    }),
  ];
}
