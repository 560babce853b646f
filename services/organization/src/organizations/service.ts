import type { z } from "zod";
import { HttpError, isUniqueViolation, ReplyError, type Knex } from "@tollgate/kit";
import { type createOrganizationForUser, memberAdded, organizationCreated, organizationDeleted, organizationUpdated, setActiveOrganization, teamCreated } from "@tollgate/proto";
import { requireCaller, type Caller } from "../caller.js";
import { orgError } from "../http/errors.js";
import { invitationsVisibleTo } from "../invitations/service.js";
import type { InvitationRow } from "../invitations/invitations.sql.js";
import { findCallerMember, organizationIdFor, requirePermission } from "../membership.js";
import { memberEventData } from "../members/output.js";
import { findMember, insertMember, membersWithUsers, type MemberRow, type MemberWithUser } from "../members/members.sql.js";
import type { Parts } from "../parts.js";
import { CREATOR_ROLE, isOwner } from "../roles/permissions.js";
import { teamEventData } from "../teams/output.js";
import { addTeamMember, insertTeam, listTeams, type TeamRow } from "../teams/teams.sql.js";
import { organizationEventData } from "./output.js";
import type { ActiveOrganizationChoice, FullOrganizationQuery, OrganizationCreate, OrganizationQuery, OrganizationUpdate } from "./schemas.js";
import {
  deleteOrganization,
  findOrganizationById,
  findOrganizationBySlug,
  insertOrganization,
  organizationsOfUser,
  slugTaken,
  updateOrganization,
  type OrganizationRow,
} from "./organizations.sql.js";

/** The organization named by slug or id, else the active one; null when none is named or active, an error when the one named does not exist. */
async function findByIdOrSlug(db: Knex, query: z.output<typeof OrganizationQuery>, activeId: string | null): Promise<OrganizationRow | null> {
  const id = query.organizationId ?? activeId;
  let organization: OrganizationRow | undefined;
  if (query.organizationSlug) organization = await findOrganizationBySlug(db, query.organizationSlug);
  else if (id) organization = await findOrganizationById(db, id);
  else return null;
  if (!organization) throw orgError(400, "ORGANIZATION_NOT_FOUND");
  return organization;
}

/**
 * Creates an organization with the caller as its owner and a first team of its own name with the
 * caller in it, and makes it the session's active one unless asked to keep the current one.
 */
export async function createOrganization(
  org: Parts,
  caller: Caller,
  body: z.output<typeof OrganizationCreate>,
): Promise<{ organization: OrganizationRow; member: MemberRow; team: TeamRow }> {
  const { config, db, units } = org;
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
  return created;
}

/**
 * An organization created on billing's request (Polar's `POST /v1/organizations/`) for the signed-in
 * user whose identity token it carries, as create makes one, without switching their session to it.
 * Refusals answer with better-auth's code, for billing to say in Polar's terms.
 */
export async function createOrganizationAsked(org: Parts, asked: z.output<typeof createOrganizationForUser.request>) {
  try {
    const caller = await requireCaller(org, org.identity.verify(asked.identity)?.claims ?? { kind: "anonymous" });
    const { organization, member } = await createOrganization(org, caller, { name: asked.name, slug: asked.slug, keepCurrentActiveOrganization: true });
    return { organization: organizationEventData(organization), owner: memberEventData(member) };
  } catch (error) {
    if (error instanceof HttpError) throw new ReplyError(error.code, error.message);
    throw error;
  }
}

/** Refuses a slug another organization holds. */
export async function assertSlugFree({ db }: Pick<Parts, "db">, slug: string): Promise<void> {
  if (await slugTaken(db, slug)) throw orgError(400, "ORGANIZATION_SLUG_ALREADY_TAKEN");
}

/**
 * Changes an organization's name, slug, logo or metadata, for a member allowed to; whether it
 * requires two-factor authentication, for its owners only: the requirement decides who may reach
 * the organization at all (admins included), as deleting it does, which better-auth leaves to owners.
 * An owner requires it only with two-factor of their own, or they would shut themselves out.
 */
export async function changeOrganization(org: Parts, caller: Caller, body: z.output<typeof OrganizationUpdate>): Promise<OrganizationRow> {
  const organizationId = organizationIdFor(caller, body.organizationId, "ORGANIZATION_NOT_FOUND");
  const member = await requirePermission(org, organizationId, caller, { organization: ["update"] }, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION", "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
  const { logo, requireTwoFactor, ...rest } = body.data;
  if (requireTwoFactor !== undefined && !isOwner(member.role)) throw orgError(403, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION");
  if (requireTwoFactor === true && !caller.two_factor) throw orgError(403, "ENABLE_TWO_FACTOR_BEFORE_REQUIRING_IT");
  if (body.data.slug && (await slugTaken(org.db, body.data.slug, organizationId))) throw orgError(400, "ORGANIZATION_SLUG_ALREADY_TAKEN");
  return org.units.run(async (unit) => {
    const updated = await updateOrganization(unit.db, organizationId, { ...rest, ...(logo !== undefined && { logo }), ...(requireTwoFactor !== undefined && { require_two_factor: requireTwoFactor }) });
    if (!updated) throw orgError(400, "ORGANIZATION_NOT_FOUND");
    unit.announce(organizationUpdated, organizationEventData(updated));
    return updated;
  });
}

/** Deletes an organization with its members, invitations and teams, for a member allowed to. */
export async function removeOrganization(org: Parts, caller: Caller, organizationId: string): Promise<OrganizationRow> {
  await requirePermission(org, organizationId, caller, { organization: ["delete"] }, "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION", "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
  const organization = await findOrganizationById(org.db, organizationId);
  if (!organization) throw orgError(400, "ORGANIZATION_NOT_FOUND");
  // Members, invitations and teams go with it (foreign keys cascade).
  await org.units.run(async (unit) => {
    await deleteOrganization(unit.db, organization.id);
    unit.announce(organizationDeleted, { id: organization.id });
  });
  if (caller.active_organization_id === organization.id) await org.request(setActiveOrganization, { session_id: caller.id, organization_id: null });
  return organization;
}

/** The organizations the caller belongs to. */
export const callerOrganizations = ({ db }: Pick<Parts, "db">, caller: Caller): Promise<OrganizationRow[]> => organizationsOfUser(db, caller.user_id);

/** Makes an organization the caller belongs to the session's active one, or clears it (null); a session left on one they do not belong to is cleared. */
export async function activateOrganization(org: Parts, caller: Caller, choice: z.output<typeof ActiveOrganizationChoice>): Promise<OrganizationRow | null> {
  if (choice.organizationId === null) {
    if (caller.active_organization_id) await org.request(setActiveOrganization, { session_id: caller.id, organization_id: null });
    return null;
  }
  const organization = await findByIdOrSlug(org.db, { organizationId: choice.organizationId ?? undefined, organizationSlug: choice.organizationSlug }, caller.active_organization_id);
  if (!organization) return null;
  if (!(await findCallerMember(org, organization.id, caller))) {
    await org.request(setActiveOrganization, { session_id: caller.id, organization_id: null });
    throw orgError(403, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
  }
  await org.request(setActiveOrganization, { session_id: caller.id, organization_id: organization.id });
  return organization;
}

/** An organization (the active one by default) with its members, the invitations the caller may see, and its teams. */
export async function fullOrganization(
  org: Parts,
  caller: Caller,
  query: z.output<typeof FullOrganizationQuery>,
): Promise<{ organization: OrganizationRow; members: MemberWithUser[]; invitations: InvitationRow[]; teams: TeamRow[] } | null> {
  const { db } = org;
  const organization = await findByIdOrSlug(db, query, caller.active_organization_id);
  if (!organization) return null;
  const member = await findCallerMember({ db }, organization.id, caller);
  if (!member) {
    if (caller.active_organization_id === organization.id) await org.request(setActiveOrganization, { session_id: caller.id, organization_id: null });
    throw orgError(403, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
  }
  const invitations = await invitationsVisibleTo(org, member);
  return { organization, members: await membersWithUsers(db, organization.id, { limit: query.membersLimit }), invitations, teams: await listTeams(db, organization.id) };
}

/**
 * An organization as its own API key reads it: that organization only (by default, too). The key is
 * nobody, neither a member nor an inviter, so it sees no invitations.
 */
export async function keyOrganization(
  { db }: Pick<Parts, "db">,
  organizationId: string,
  query: z.output<typeof FullOrganizationQuery>,
): Promise<{ organization: OrganizationRow; members: MemberWithUser[]; invitations: InvitationRow[]; teams: TeamRow[] } | null> {
  const organization = await findByIdOrSlug(db, query, organizationId);
  if (!organization) return null;
  if (organization.id !== organizationId) throw orgError(403, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
  return { organization, members: await membersWithUsers(db, organization.id, { limit: query.membersLimit }), invitations: [], teams: await listTeams(db, organization.id) };
}

/** An organization (the active one by default) the caller belongs to; null when none is named or active. */
export async function memberOrganization(org: Parts, caller: Caller, query: z.output<typeof OrganizationQuery>): Promise<OrganizationRow | null> {
  const organization = await findByIdOrSlug(org.db, query, caller.active_organization_id);
  if (!organization) return null;
  // Open to a member the two-factor requirement refuses, so they can be told which organization asks it of them.
  if (!(await findMember(org.db, organization.id, caller.user_id))) throw orgError(403, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
  return organization;
}
