import type { z } from "zod";
import { invalidField, notFound, type Units } from "@tollgate/kit";
import { announceBilling } from "../events.js";
import { sellerJson, subscriptionSettingsOf } from "./output.js";
import { updateSeller, type SellerChanges, type SellerRow } from "./organizations.sql.js";
import type { OrganizationUpdate } from "./schemas.js";

// The reads the routes make, as the store has them: an organization by id, a page of them.
export { findSeller, pageOfSellers, type SellerRow } from "./organizations.sql.js";

/** What a seller's update changes: settings given are merged into the seller's, field by field. */
function sellerChangesOf(seller: SellerRow, body: z.output<typeof OrganizationUpdate>): SellerChanges {
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
  return changes;
}

/** Updates what billing keeps of a seller, announced as organization.updated. */
export async function changeSeller(units: Units, seller: SellerRow, body: z.output<typeof OrganizationUpdate>): Promise<ReturnType<typeof sellerJson>> {
  // The organization service owns the name (better-auth's organization update changes it).
  if (body.name !== undefined && body.name !== null && body.name !== seller.name) {
    throw invalidField(["name"], "Rename the organization through the organization settings (/api/auth/organization/update)", body.name);
  }
  const changes = sellerChangesOf(seller, body);
  return units.run(async (unit) => {
    const updated = await updateSeller(unit.db, seller.id, changes);
    if (!updated) throw notFound("Organization");
    const json = sellerJson(updated);
    announceBilling(unit, "organization.updated", updated.id, json);
    return json;
  });
}
