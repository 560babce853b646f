import type { LinkedMemberRow, OrganizationLinkRow } from "./organization-links.sql.js";

type Named = { id: string; name: string; slug: string };

export const linkedMemberJson = (member: LinkedMemberRow) => ({
  user_id: member.user_id,
  email: member.email,
  status: member.status,
  seat_id: member.seat_id,
  reason: member.reason,
  changed_at: member.changed_at.toISOString(),
});

/** The link as the seller and the customer's owner see it: with the buyer's organization once linked (`organization`). */
export const organizationLinkJson = (link: OrganizationLinkRow, organization: Named | undefined, members: LinkedMemberRow[]) => ({
  customer_id: link.customer_id,
  status: link.linked_organization_id ? ("linked" as const) : ("awaiting_consent" as const),
  organization: organization ? { id: organization.id, name: organization.name, slug: organization.slug } : null,
  requested_at: link.requested_at.toISOString(),
  linked_at: link.linked_at?.toISOString() ?? null,
  members: members.map(linkedMemberJson),
});
