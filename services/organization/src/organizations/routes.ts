import { z } from "zod";
import { defineEndpoint, isUniqueViolation, type Endpoint } from "@tollgate/kit";
import { memberAdded, organizationCreated, organizationDeleted, organizationUpdated, setActiveOrganization, teamCreated } from "@tollgate/proto";
import { requireCaller } from "../caller.js";
import { orgError } from "../http/errors.js";
import { invitationJson } from "../invitations/output.js";
import { listInvitations } from "../invitations/invitations.sql.js";
import { organizationIdFor, requirePermission } from "../membership.js";
import { memberEventData, memberJson, memberWithUserJson } from "../members/output.js";
import { findMember, insertMember, membersWithUsers } from "../members/members.sql.js";
import type { Parts } from "../parts.js";
import { CREATOR_ROLE, hasPermission, isOwner, roleList } from "../roles/permissions.js";
import { teamEventData, teamJson } from "../teams/output.js";
import { addTeamMember, insertTeam, listTeams } from "../teams/teams.sql.js";
import { organizationEventData, organizationJson } from "./output.js";
import { CreatedOrganization, FullOrganization, Organization, SlugFree } from "./schemas.js";
import {
  deleteOrganization,
  findOrganizationById,
  findOrganizationBySlug,
  slugTaken,
  insertOrganization,
  organizationsOfUser,
  updateOrganization,
  type OrganizationRow,
} from "./organizations.sql.js";

export function organizationEndpoints(org: Parts): Endpoint[] {
  const { config, db, units } = org;

  /** The organization named by slug or id, else the active one; null when none is named or active, an error when the one named does not exist. */
  async function findByIdOrSlug(query: { organizationId?: string; organizationSlug?: string }, activeId: string | null): Promise<OrganizationRow | null> {
    const id = query.organizationId ?? activeId;
    let organization: OrganizationRow | undefined;
    if (query.organizationSlug) organization = await findOrganizationBySlug(db, query.organizationSlug);
    else if (id) organization = await findOrganizationById(db, id);
    else return null;
    if (!organization) throw orgError(400, "ORGANIZATION_NOT_FOUND");
    return organization;
  }

  return [
    defineEndpoint(
      "/organization/create",
      {
        method: "POST",
        body: z.object({
          name: z.string().min(1),
          slug: z.string().min(1),
          userId: z.coerce.string().optional(),
          logo: z.string().nullish(),
          metadata: z.record(z.string(), z.unknown()).optional(),
          keepCurrentActiveOrganization: z.boolean().optional(),
        }),
        response: CreatedOrganization,
        summary: "Create an organization, with the caller as its owner and a first team, and make it the active one",
        tag: "Organization",
      },
      async ({ body, identity }) => {
        // Creating for another user (userId) is for trusted server code, which does not come through the gateway.
        if (body.userId !== undefined) throw orgError(401, "UNAUTHORIZED");
        const caller = await requireCaller(org, identity);
        if (!config.ALLOW_USER_TO_CREATE_ORGANIZATION) throw orgError(403, "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION");
        if (config.ORGANIZATION_LIMIT > 0 && (await organizationsOfUser(db, caller.user_id)).length >= config.ORGANIZATION_LIMIT) {
          throw orgError(403, "YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS");
        }
        if (await slugTaken(db, body.slug)) throw orgError(400, "ORGANIZATION_ALREADY_EXISTS");
        const created = await units
          .run(async (unit) => {
            const organization = await insertOrganization(unit.db, { name: body.name, slug: body.slug, logo: body.logo ?? null, metadata: body.metadata ?? null });
            const member = await insertMember(unit.db, { organization_id: organization.id, user_id: caller.user_id, role: CREATOR_ROLE });
            // Every organization starts with a team of its own name, with the creator in it.
            const team = await insertTeam(unit.db, organization.id, organization.name);
            await addTeamMember(unit.db, team.id, caller.user_id);
            unit.announce(organizationCreated, organizationEventData(organization));
            unit.announce(memberAdded, memberEventData(member));
            unit.announce(teamCreated, teamEventData(team));
            return { organization, member, team };
          })
          .catch((error: unknown) => {
            if (isUniqueViolation(error)) throw orgError(400, "ORGANIZATION_ALREADY_EXISTS");
            throw error;
          });
        if (!body.keepCurrentActiveOrganization) {
          await org.request(setActiveOrganization, { session_id: caller.id, organization_id: created.organization.id, team_id: created.team.id });
        }
        return { ...organizationJson(created.organization), members: [memberJson(created.member)] };
      },
    ),

    defineEndpoint(
      "/organization/check-slug",
      { method: "POST", body: z.object({ slug: z.string() }), response: SlugFree, summary: "Check that a slug is free to take", tag: "Organization" },
      async ({ body, identity }) => {
        await requireCaller(org, identity);
        if (await slugTaken(db, body.slug)) throw orgError(400, "ORGANIZATION_SLUG_ALREADY_TAKEN");
        return { status: true };
      },
    ),

    defineEndpoint(
      "/organization/update",
      {
        method: "POST",
        body: z.object({
          data: z
            .object({
              name: z.string().min(1).optional(),
              slug: z.string().min(1).optional(),
              logo: z.string().nullish(),
              metadata: z.record(z.string(), z.unknown()).optional(),
            })
            .partial(),
          organizationId: z.string().optional(),
        }),
        response: Organization,
        summary: "Change an organization's name, slug, logo or metadata",
        tag: "Organization",
      },
      async ({ body, identity }) => {
        const caller = await requireCaller(org, identity);
        const organizationId = organizationIdFor(caller, body.organizationId, "ORGANIZATION_NOT_FOUND");
        await requirePermission(org, organizationId, caller, { organization: ["update"] }, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION", "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
        if (body.data.slug && (await slugTaken(db, body.data.slug, organizationId))) throw orgError(400, "ORGANIZATION_SLUG_ALREADY_TAKEN");
        const { logo, ...rest } = body.data;
        return units.run(async (unit) => {
          const updated = await updateOrganization(unit.db, organizationId, { ...rest, ...(logo !== undefined && { logo }) });
          if (!updated) throw orgError(400, "ORGANIZATION_NOT_FOUND");
          unit.announce(organizationUpdated, organizationEventData(updated));
          return organizationJson(updated);
        });
      },
    ),

    defineEndpoint(
      "/organization/delete",
      { method: "POST", body: z.object({ organizationId: z.string() }), response: Organization, summary: "Delete an organization with its members, invitations and teams", tag: "Organization" },
      async ({ body, identity }) => {
        const caller = await requireCaller(org, identity);
        await requirePermission(org, body.organizationId, caller, { organization: ["delete"] }, "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION", "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
        const organization = await findOrganizationById(db, body.organizationId);
        if (!organization) throw orgError(400, "ORGANIZATION_NOT_FOUND");
        // Members, invitations and teams go with it (foreign keys cascade).
        await units.run(async (unit) => {
          await deleteOrganization(unit.db, organization.id);
          unit.announce(organizationDeleted, { id: organization.id });
        });
        if (caller.active_organization_id === organization.id) await org.request(setActiveOrganization, { session_id: caller.id, organization_id: null });
        return organizationJson(organization);
      },
    ),

    defineEndpoint("/organization/list", { method: "GET", response: z.array(Organization), summary: "List the organizations the caller belongs to", tag: "Organization" }, async ({ identity }) => {
      const caller = await requireCaller(org, identity);
      return (await organizationsOfUser(db, caller.user_id)).map(organizationJson);
    }),

    defineEndpoint(
      "/organization/set-active",
      {
        method: "POST",
        body: z.object({ organizationId: z.string().nullable().optional(), organizationSlug: z.string().optional() }),
        response: Organization.nullable(),
        summary: "Make an organization the session's active one (null clears it)",
        tag: "Organization",
      },
      async ({ body, identity }) => {
        const caller = await requireCaller(org, identity);
        if (body.organizationId === null) {
          if (caller.active_organization_id) await org.request(setActiveOrganization, { session_id: caller.id, organization_id: null });
          return null;
        }
        const organization = await findByIdOrSlug({ organizationId: body.organizationId ?? undefined, organizationSlug: body.organizationSlug }, caller.active_organization_id);
        if (!organization) return null;
        if (!(await findMember(db, organization.id, caller.user_id))) {
          await org.request(setActiveOrganization, { session_id: caller.id, organization_id: null });
          throw orgError(403, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
        }
        await org.request(setActiveOrganization, { session_id: caller.id, organization_id: organization.id });
        return organizationJson(organization);
      },
    ),

    defineEndpoint(
      "/organization/get-full-organization",
      {
        method: "GET",
        query: z.object({ organizationId: z.string().optional(), organizationSlug: z.string().optional(), membersLimit: z.coerce.number().int().positive().optional() }),
        response: FullOrganization.nullable(),
        summary: "Get an organization (the active one by default) with its members, invitations and teams",
        tag: "Organization",
      },
      async ({ query, identity }) => {
        const caller = await requireCaller(org, identity);
        const organization = await findByIdOrSlug(query, caller.active_organization_id);
        if (!organization) return null;
        const member = await findMember(db, organization.id, caller.user_id);
        if (!member) {
          if (caller.active_organization_id === organization.id) await org.request(setActiveOrganization, { session_id: caller.id, organization_id: null });
          throw orgError(403, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
        }
        // Invitation ids work as invitation links: only those who may invite see them, and owner invitations only owners.
        const invitations = hasPermission(member.role, { invitation: ["create"] })
          ? (await listInvitations(db, organization.id)).filter((invitation) => isOwner(member.role) || !roleList(invitation.role).includes(CREATOR_ROLE))
          : [];
        return {
          ...organizationJson(organization),
          members: (await membersWithUsers(db, organization.id, { limit: query.membersLimit })).map(memberWithUserJson),
          invitations: invitations.map(invitationJson),
          teams: (await listTeams(db, organization.id)).map(teamJson),
        };
      },
    ),

    defineEndpoint(
      "/organization/get-organization",
      {
        method: "GET",
        query: z.object({ organizationId: z.string().optional(), organizationSlug: z.string().optional() }),
        response: Organization.nullable(),
        summary: "Get an organization (the active one by default)",
        tag: "Organization",
      },
      async ({ query, identity }) => {
        const caller = await requireCaller(org, identity);
        const organization = await findByIdOrSlug(query, caller.active_organization_id);
        if (!organization) return null;
        if (!(await findMember(db, organization.id, caller.user_id))) throw orgError(403, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
        return organizationJson(organization);
      },
    ),
  ];
}
