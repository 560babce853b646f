import type { z } from "zod";
import { HttpError } from "@tollgate/kit";
import { memberUpdated, type checkOrganizationPermission } from "@tollgate/proto";
import type { Caller } from "../caller.js";
import { orgError } from "../http/errors.js";
import { findCallerMember, organizationIdFor, requireMembership, requireTwoFactorIfAsked } from "../membership.js";
import { findOrganizationBySlug } from "../organizations/organizations.sql.js";
import type { Parts } from "../parts.js";
import { hasPermission, isOwner, roleList, roleText, unknownRoles } from "../roles/permissions.js";
import { findMember, findMemberByEmail, findMemberById, membersWithUsers, updateMemberRole, type MemberRow, type MemberWithUser } from "./members.sql.js";
import { memberEventData } from "./output.js";
import { keepingAnOwner } from "./owners.js";
import { removeMember } from "./removal.js";
import type { LeaveRequest, MemberListQuery, MemberRemoval, MemberRoleChange, MemberRoleQuery, PermissionQuestion } from "./schemas.js";

/** The caller's membership of the organization named by id or slug, else of the active one. */
async function callerMembership({ db }: Pick<Parts, "db">, caller: Caller, query: { organizationId?: string; organizationSlug?: string }): Promise<MemberRow> {
  let organizationId = query.organizationId;
  if (query.organizationSlug) {
    const organization = await findOrganizationBySlug(db, query.organizationSlug);
    if (!organization) throw orgError(400, "ORGANIZATION_NOT_FOUND");
    organizationId = organization.id;
  }
  const id = organizationIdFor(caller, organizationId);
  const member = await findCallerMember({ db }, id, caller);
  if (!member) throw orgError(403, "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
  return member;
}

/** A member allowed to delete members removes one, named by member id or e-mail address; returns the member removed. */
export async function removeMemberAsAsked(org: Parts, caller: Caller, body: z.output<typeof MemberRemoval>): Promise<MemberRow> {
  const organizationId = organizationIdFor(caller, body.organizationId);
  const actor = await requireMembership(org, organizationId, caller);
  const target = body.memberIdOrEmail.includes("@") ? await findMemberByEmail(org.db, organizationId, body.memberIdOrEmail) : await findMemberById(org.db, body.memberIdOrEmail);
  if (!target || target.organization_id !== organizationId) throw orgError(400, "MEMBER_NOT_FOUND");
  // Only an owner removes an owner (and never the last one: removeMember keeps an owner).
  if (isOwner(target.role) && !isOwner(actor.role)) throw orgError(400, "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER");
  if (!hasPermission(actor.role, { member: ["delete"] })) throw orgError(401, "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER");
  await removeMember(org, target);
  return target;
}

/** Changes a member's role or roles; only an owner makes or changes an owner, and an organization keeps one. */
export async function changeMemberRole(org: Parts, caller: Caller, body: z.output<typeof MemberRoleChange>): Promise<MemberRow> {
  const roles = roleList(body.role);
  if (roles.length === 0) throw new HttpError(400, "BAD_REQUEST", "Bad Request");
  const organizationId = organizationIdFor(caller, body.organizationId);
  const actor = await requireMembership(org, organizationId, caller);
  const target = actor.id === body.memberId ? actor : await findMemberById(org.db, body.memberId);
  if (!target) throw orgError(400, "MEMBER_NOT_FOUND");
  if (target.organization_id !== organizationId) throw orgError(403, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
  const settingOwner = roles.includes("owner");
  if ((isOwner(target.role) || settingOwner) && !isOwner(actor.role)) throw orgError(403, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
  if (!isOwner(actor.role) && !hasPermission(actor.role, { member: ["update"] })) throw orgError(403, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
  const unknown = unknownRoles(roles);
  if (unknown.length > 0) throw new HttpError(400, "ROLE_NOT_FOUND", `ROLE_NOT_FOUND: ${unknown.join(", ")}`);
  return keepingAnOwner(org, organizationId, "YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER", async (unit) => {
    const updated = await updateMemberRole(unit.db, target.id, roleText(roles));
    if (!updated) throw orgError(400, "MEMBER_NOT_FOUND");
    unit.announce(memberUpdated, memberEventData(updated));
    return updated;
  });
}

/** The caller's membership of the active organization, with their user. */
export async function activeMember({ db }: Pick<Parts, "db">, caller: Caller): Promise<MemberWithUser> {
  if (!caller.active_organization_id) throw orgError(400, "NO_ACTIVE_ORGANIZATION");
  const [member] = await membersWithUsers(db, caller.active_organization_id, { userId: caller.user_id });
  if (!member) throw orgError(400, "MEMBER_NOT_FOUND");
  await requireTwoFactorIfAsked({ db }, caller.active_organization_id, caller);
  return member;
}

/** The role of the caller, or of another member, in an organization the caller belongs to. */
export async function memberRole(org: Pick<Parts, "db">, caller: Caller, query: z.output<typeof MemberRoleQuery>): Promise<string> {
  const member = await callerMembership(org, caller, query);
  if (!query.userId) return member.role;
  const other = await findMember(org.db, member.organization_id, query.userId);
  if (!other) throw orgError(403, "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
  return other.role;
}

/** A page of the members of an organization the caller belongs to, and how many there are in all. */
export async function memberPage(org: Pick<Parts, "db">, caller: Caller, query: z.output<typeof MemberListQuery>): Promise<{ members: MemberWithUser[]; total: number }> {
  const { organization_id: organizationId } = await callerMembership(org, caller, query);
  const all = await membersWithUsers(org.db, organizationId);
  const members = await membersWithUsers(org.db, organizationId, { limit: query.limit || undefined, offset: query.offset || undefined });
  return { members, total: all.length };
}

/** The caller leaves an organization (never as its last owner); returns the membership that ended. */
export async function leaveOrganization(org: Parts, caller: Caller, body: z.output<typeof LeaveRequest>): Promise<MemberRow> {
  // Leaving stays open to a member the organization's two-factor requirement refuses.
  const member = await findMember(org.db, body.organizationId, caller.user_id);
  if (!member) throw orgError(400, "MEMBER_NOT_FOUND");
  await removeMember(org, member);
  return member;
}

/** Whether the caller's role in an organization grants the permissions asked about. */
export async function callerHasPermission({ db }: Pick<Parts, "db">, caller: Caller, body: z.output<typeof PermissionQuestion>): Promise<boolean> {
  const organizationId = organizationIdFor(caller, body.organizationId);
  const member = await findCallerMember({ db }, organizationId, caller);
  if (!member) throw orgError(401, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
  const wanted = body.permissions ?? body.permission;
  if (!wanted) throw new HttpError(400, "BAD_REQUEST", "invalid permission check. no permission(s) were passed.");
  return hasPermission(member.role, wanted);
}

/** Whether a user holds permissions in an organization, asked by another service (auth, for the organization's API keys). */
export async function userPermission({ db }: Pick<Parts, "db">, asked: z.output<typeof checkOrganizationPermission.request>): Promise<{ member: boolean; allowed: boolean }> {
  const member = await findMember(db, asked.organization_id, asked.user_id);
  return { member: member !== undefined, allowed: member !== undefined && hasPermission(member.role, asked.permissions) };
}
