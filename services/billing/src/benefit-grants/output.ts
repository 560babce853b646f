import type { BenefitGrantRow, BenefitRow } from "../benefits/benefits.sql.js";
import { benefitJson } from "../benefits/output.js";
import type { CustomerRow } from "../customers/customers.sql.js";
import { customerJson } from "../customers/output.js";
import type { MemberRow } from "../members/members.sql.js";
import { memberJson } from "../members/output.js";

/** A grant as Polar shows it: with its customer, the seat member holding it (if one does) and its benefit in full. */
export const benefitGrantJson = (grant: BenefitGrantRow, customer: CustomerRow, benefit: BenefitRow, member: MemberRow | null) => ({
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
  member_id: grant.member_id,
  benefit_id: grant.benefit_id,
  error: grant.error,
  customer: customerJson(customer),
  member: member ? memberJson(member) : null,
  benefit: benefitJson(benefit),
  properties: grant.properties,
});
