import type { MemberRow, MemberWithUser } from "./members.sql.js";

export const memberJson = (member: MemberRow) => ({
  id: member.id,
  organizationId: member.organization_id,
  userId: member.user_id,
  role: member.role,
  createdAt: member.created_at,
});

export const memberWithUserJson = (member: MemberWithUser) => ({ ...memberJson(member), user: member.user });

export const memberEventData = (member: MemberRow) => ({
  id: member.id,
  organization_id: member.organization_id,
  user_id: member.user_id,
  role: member.role,
});
