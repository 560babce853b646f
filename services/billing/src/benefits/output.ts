import { customerJson } from "../customers/output.js";
import type { CustomerRow } from "../customers/customers.sql.js";
import type { BenefitGrantRow, BenefitRow } from "./benefits.sql.js";

/** What a buyer or customer may see of a benefit (Polar's BenefitPublic): what it is, never how it is set up (a Discord bot's token, say). */
export const benefitPublicJson = ({ properties: _properties, metadata: _metadata, ...shown }: ReturnType<typeof benefitJson>) => shown;

/** A benefit as Polar shows it (its webhook payload too). */
export const benefitJson = (benefit: BenefitRow) => ({
  id: benefit.id,
  created_at: benefit.created_at,
  modified_at: benefit.modified_at,
  type: benefit.type,
  description: benefit.description,
  selectable: benefit.selectable,
  deletable: benefit.deletable,
  is_deleted: benefit.is_deleted,
  organization_id: benefit.organization_id,
  metadata: benefit.metadata,
  properties: benefit.properties,
});

/** A grant as Polar shows it: with its customer and benefit in full. */
export const benefitGrantJson = (grant: BenefitGrantRow, customer: CustomerRow, benefit: BenefitRow) => ({
  id: grant.id,
  created_at: grant.created_at,
  modified_at: grant.modified_at,
  granted_at: grant.granted_at,
  is_granted: grant.granted_at !== null && grant.revoked_at === null,
  revoked_at: grant.revoked_at,
  is_revoked: grant.revoked_at !== null,
  subscription_id: grant.subscription_id,
  order_id: grant.order_id,
  customer_id: grant.customer_id,
  member_id: null,
  benefit_id: grant.benefit_id,
  error: grant.error,
  customer: customerJson(customer),
  member: null,
  benefit: benefitJson(benefit),
  properties: grant.properties,
});
