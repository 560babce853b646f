import type { MemberRow } from "./members.sql.js";

/** A member as Polar shows it to the seller (and in member.* webhooks). */
export const memberJson = (member: MemberRow) => ({
  id: member.id,
  created_at: member.created_at,
  modified_at: member.modified_at,
  customer_id: member.customer_id,
  email: member.email,
  name: member.name,
  external_id: member.external_id,
  role: member.role,
});

/** A member as the customer portal shows them to their team's owner and billing managers. */
export const portalMemberJson = (member: MemberRow) => ({
  id: member.id,
  created_at: member.created_at,
  modified_at: member.modified_at,
  email: member.email,
  name: member.name,
  role: member.role,
});
