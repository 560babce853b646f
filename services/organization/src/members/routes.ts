import { z } from "zod";
import { defineEndpoint, HttpError, type Endpoint } from "@tollgate/kit";
import { memberUpdated } from "@tollgate/proto";
import { requireCaller } from "../caller.js";
import { orgError } from "../http/errors.js";
import { organizationIdFor, requireMembership } from "../membership.js";
import type { Parts } from "../parts.js";
import { findOrganizationBySlug } from "../organizations/organizations.sql.js";
import { hasPermission, isOwner, roleList, roleText, unknownRoles } from "../roles/permissions.js";
import { findMember, findMemberByEmail, findMemberById, membersWithUsers, updateMemberRole } from "./members.sql.js";
import { memberEventData, memberJson, memberWithUserJson } from "./output.js";
import { keepingAnOwner } from "./owners.js";
import { removeMember } from "./removal.js";
import { Member, MemberPage, MemberRole, MemberWithUser, PermissionCheck, RemovedMember } from "./schemas.js";

const role = z.union([z.string(), z.array(z.string())]);

export function memberEndpoints(org: Parts): Endpoint[] {
  const { db } = org;

  /** The organization named by id or slug, else the caller's active one; the caller must belong to it. */
  async function memberOrganization(caller: Awaited<ReturnType<typeof requireCaller>>, query: { organizationId?: string; organizationSlug?: string }) {
    let organizationId = query.organizationId;
    if (query.organizationSlug) {
      const organization = await findOrganizationBySlug(db, query.organizationSlug);
      if (!organization) throw orgError(400, "ORGANIZATION_NOT_FOUND");
      organizationId = organization.id;
    }
    const id = organizationIdFor(caller, organizationId);
    const member = await findMember(db, id, caller.user_id);
    if (!member) throw orgError(403, "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
    return member;
  }

  return [
    defineEndpoint(
      "/organization/remove-member",
      {
        method: "POST",
        body: z.object({ memberIdOrEmail: z.string(), organizationId: z.string().optional() }),
        response: RemovedMember,
        summary: "Remove a member, named by member id or e-mail address, from an organization",
        tag: "Organization",
      },
      async ({ body, identity }) => {
        const caller = await requireCaller(org, identity);
        const organizationId = organizationIdFor(caller, body.organizationId);
        const actor = await requireMembership(org, organizationId, caller);
        const target = body.memberIdOrEmail.includes("@")
          ? await findMemberByEmail(db, organizationId, body.memberIdOrEmail)
          : await findMemberById(db, body.memberIdOrEmail);
        if (!target || target.organization_id !== organizationId) throw orgError(400, "MEMBER_NOT_FOUND");
        // Only an owner removes an owner (and never the last one: removeMember keeps an owner).
        if (isOwner(target.role) && !isOwner(actor.role)) throw orgError(400, "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER");
        if (!hasPermission(actor.role, { member: ["delete"] })) throw orgError(401, "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER");
        await removeMember(org, target);
        return { member: memberJson(target) };
      },
    ),

    defineEndpoint(
      "/organization/update-member-role",
      {
        method: "POST",
        body: z.object({ role, memberId: z.string(), organizationId: z.string().optional() }),
        response: Member,
        summary: "Change a member's role or roles",
        tag: "Organization",
      },
      async ({ body, identity }) => {
        const caller = await requireCaller(org, identity);
        const roles = roleList(body.role);
        if (roles.length === 0) throw new HttpError(400, "BAD_REQUEST", "Bad Request");
        const organizationId = organizationIdFor(caller, body.organizationId);
        const actor = await requireMembership(org, organizationId, caller);
        const target = actor.id === body.memberId ? actor : await findMemberById(db, body.memberId);
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
          return memberJson(updated);
        });
      },
    ),

    defineEndpoint(
      "/organization/get-active-member",
      { method: "GET", response: MemberWithUser, summary: "Get the caller's membership of the active organization", tag: "Organization" },
      async ({ identity }) => {
        const caller = await requireCaller(org, identity);
        if (!caller.active_organization_id) throw orgError(400, "NO_ACTIVE_ORGANIZATION");
        const [member] = await membersWithUsers(db, caller.active_organization_id, { userId: caller.user_id });
        if (!member) throw orgError(400, "MEMBER_NOT_FOUND");
        return memberWithUserJson(member);
      },
    ),

    defineEndpoint(
      "/organization/get-active-member-role",
      {
        method: "GET",
        query: z.object({ userId: z.string().optional(), organizationId: z.string().optional(), organizationSlug: z.string().optional() }),
        response: MemberRole,
        summary: "Get the role of the caller, or of another member, in an organization",
        tag: "Organization",
      },
      async ({ query, identity }) => {
        const caller = await requireCaller(org, identity);
        const member = await memberOrganization(caller, query);
        if (!query.userId) return { role: member.role };
        const other = await findMember(db, member.organization_id, query.userId);
        if (!other) throw orgError(403, "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
        return { role: other.role };
      },
    ),

    defineEndpoint(
      "/organization/list-members",
      {
        method: "GET",
        query: z.object({
          limit: z.coerce.number().int().min(0).optional(),
          offset: z.coerce.number().int().min(0).optional(),
          organizationId: z.string().optional(),
          organizationSlug: z.string().optional(),
        }),
        response: MemberPage,
        summary: "List an organization's members, a page at a time",
        tag: "Organization",
      },
      async ({ query, identity }) => {
        const caller = await requireCaller(org, identity);
        const { organization_id: organizationId } = await memberOrganization(caller, query);
        const all = await membersWithUsers(db, organizationId);
        const page = await membersWithUsers(db, organizationId, { limit: query.limit || undefined, offset: query.offset || undefined });
        return { members: page.map(memberWithUserJson), total: all.length };
      },
    ),

    defineEndpoint(
      "/organization/leave",
      { method: "POST", body: z.object({ organizationId: z.string() }), response: Member, summary: "Leave an organization", tag: "Organization" },
      async ({ body, identity }) => {
        const caller = await requireCaller(org, identity);
        const member = await findMember(db, body.organizationId, caller.user_id);
        if (!member) throw orgError(400, "MEMBER_NOT_FOUND");
        await removeMember(org, member);
        return memberJson(member);
      },
    ),

    defineEndpoint(
      "/organization/has-permission",
      {
        method: "POST",
        body: z.object({ organizationId: z.string().optional(), permissions: z.record(z.string(), z.array(z.string())).optional(), permission: z.record(z.string(), z.array(z.string())).optional() }),
        response: PermissionCheck,
        summary: "Check whether the caller's role in an organization grants the given permissions",
        tag: "Organization",
      },
      async ({ body, identity }) => {
        const caller = await requireCaller(org, identity);
        const organizationId = organizationIdFor(caller, body.organizationId);
        const member = await findMember(db, organizationId, caller.user_id);
        if (!member) throw orgError(401, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
        const wanted = body.permissions ?? body.permission;
        if (!wanted) throw new HttpError(400, "BAD_REQUEST", "invalid permission check. no permission(s) were passed.");
        return { error: null, success: hasPermission(member.role, wanted) };
      },
    ),
  ];
}
