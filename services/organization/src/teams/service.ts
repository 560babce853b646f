import type { z } from "zod";
import { clearActiveOrganization, setActiveOrganization, teamCreated, teamDeleted, teamUpdated } from "@tollgate/proto";
import type { Caller } from "../caller.js";
import { orgError, type OrgErrorCode } from "../http/errors.js";
import { findCallerMember, organizationIdFor, requireTwoFactorIfAsked } from "../membership.js";
import { findMember } from "../members/members.sql.js";
import type { Parts } from "../parts.js";
import { hasPermission } from "../roles/permissions.js";
import { teamEventData } from "./output.js";
import type { ActiveTeamChoice, TeamCreate, TeamMembership, TeamRemovalRequest, TeamUpdate } from "./schemas.js";
import {
  addTeamMember,
  deleteTeam,
  findTeam,
  findTeamById,
  findTeamMember,
  insertTeam,
  listTeamMembers,
  listTeams,
  removeTeamMember,
  teamsOfUser,
  updateTeam,
  type TeamMemberRow,
  type TeamRow,
} from "./teams.sql.js";

/** The team a caller adds people to or takes them out of: they must be allowed to change members. */
async function managedTeam({ db }: Pick<Parts, "db">, caller: Caller, body: z.output<typeof TeamMembership>, action: "update" | "delete", refusal: OrgErrorCode) {
  const organizationId = organizationIdFor(caller, body.organizationId);
  const actor = await findCallerMember({ db }, organizationId, caller);
  if (!actor) throw orgError(400, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
  if (!hasPermission(actor.role, { member: [action] })) throw orgError(403, refusal);
  const team = await findTeam(db, organizationId, body.teamId);
  if (!team) throw orgError(400, "TEAM_NOT_FOUND");
  return { organizationId, team };
}

/** A member allowed to create teams creates one. */
export async function createTeam({ db, units }: Pick<Parts, "db" | "units">, caller: Caller, body: z.output<typeof TeamCreate>): Promise<TeamRow> {
  const organizationId = organizationIdFor(caller, body.organizationId);
  const member = await findCallerMember({ db }, organizationId, caller);
  if (!member) throw orgError(403, "YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION");
  if (!hasPermission(member.role, { team: ["create"] })) throw orgError(403, "YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION");
  return units.run(async (unit) => {
    const team = await insertTeam(unit.db, organizationId, body.name);
    unit.announce(teamCreated, teamEventData(team));
    return team;
  });
}

/** A member allowed to delete teams deletes one (not the last, unless allowed, nor their active one); it stops being its members' active team. */
export async function removeTeam(org: Parts, caller: Caller, body: z.output<typeof TeamRemovalRequest>): Promise<void> {
  const { config, db, units } = org;
  const organizationId = organizationIdFor(caller, body.organizationId);
  const member = await findCallerMember({ db }, organizationId, caller);
  // A member cannot delete the team they are working in.
  if (!member || caller.active_team_id === body.teamId) throw orgError(403, "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM");
  if (!hasPermission(member.role, { team: ["delete"] })) throw orgError(403, "YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION");
  const team = await findTeam(db, organizationId, body.teamId);
  if (!team) throw orgError(400, "TEAM_NOT_FOUND");
  if (!config.ALLOW_REMOVING_ALL_TEAMS && (await listTeams(db, organizationId)).length <= 1) throw orgError(400, "UNABLE_TO_REMOVE_LAST_TEAM");
  const members = await listTeamMembers(db, team.id);
  await units.run(async (unit) => {
    await deleteTeam(unit.db, team.id);
    unit.announce(teamDeleted, teamEventData(team));
  });
  for (const { user_id } of members) await org.request(clearActiveOrganization, { user_id, organization_id: organizationId, team_id: team.id });
}

/** A member allowed to update teams renames one. */
export async function renameTeam({ db, units }: Pick<Parts, "db" | "units">, caller: Caller, body: z.output<typeof TeamUpdate>): Promise<TeamRow> {
  const organizationId = organizationIdFor(caller, body.data.organizationId);
  const member = await findCallerMember({ db }, organizationId, caller);
  if (!member || !hasPermission(member.role, { team: ["update"] })) throw orgError(403, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM");
  const team = await findTeam(db, organizationId, body.teamId);
  if (!team) throw orgError(400, "TEAM_NOT_FOUND");
  if (body.data.name === undefined) return team;
  const name = body.data.name;
  return units.run(async (unit) => {
    const updated = await updateTeam(unit.db, team.id, name);
    if (!updated) throw orgError(400, "TEAM_NOT_FOUND");
    unit.announce(teamUpdated, teamEventData(updated));
    return updated;
  });
}

/** The teams of an organization (the active one by default) the caller belongs to. */
export async function organizationTeams({ db }: Pick<Parts, "db">, caller: Caller, organizationId: string | undefined): Promise<TeamRow[]> {
  const id = organizationIdFor(caller, organizationId);
  if (!(await findCallerMember({ db }, id, caller))) throw orgError(403, "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
  return listTeams(db, id);
}

/** Makes one of the caller's teams in the active organization the session's active team; null clears it. */
export async function activateTeam(org: Parts, caller: Caller, choice: z.output<typeof ActiveTeamChoice>): Promise<TeamRow | null> {
  if (!choice.teamId) {
    if (caller.active_team_id && choice.teamId === null) {
      await org.request(setActiveOrganization, { session_id: caller.id, organization_id: caller.active_organization_id, team_id: null });
    }
    return null;
  }
  const organizationId = organizationIdFor(caller, undefined);
  const team = await findTeam(org.db, organizationId, choice.teamId);
  if (!team) throw orgError(400, "TEAM_NOT_FOUND");
  if (!(await findTeamMember(org.db, team.id, caller.user_id))) throw orgError(403, "USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
  await requireTwoFactorIfAsked(org, organizationId, caller);
  await org.request(setActiveOrganization, { session_id: caller.id, organization_id: organizationId, team_id: team.id });
  return team;
}

/** The teams the caller belongs to, in every organization. */
export const callerTeams = ({ db }: Pick<Parts, "db">, caller: Caller): Promise<TeamRow[]> => teamsOfUser(db, caller.user_id);

/** The members of a team the caller belongs to (the active team by default). */
export async function teamMembers({ db }: Pick<Parts, "db">, caller: Caller, teamId = caller.active_team_id): Promise<TeamMemberRow[]> {
  if (!teamId) throw orgError(400, "YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM");
  const team = await findTeamById(db, teamId);
  if (!team) throw orgError(400, "TEAM_NOT_FOUND");
  if (!(await findTeamMember(db, team.id, caller.user_id))) throw orgError(400, "USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
  await requireTwoFactorIfAsked({ db }, team.organization_id, caller);
  return listTeamMembers(db, team.id);
}

/** Puts a member of the organization into a team, for a member allowed to change members. */
export async function addMemberToTeam(org: Pick<Parts, "db">, caller: Caller, body: z.output<typeof TeamMembership>): Promise<TeamMemberRow> {
  const { organizationId, team } = await managedTeam(org, caller, body, "update", "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER");
  if (!(await findMember(org.db, organizationId, body.userId))) throw orgError(400, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
  return addTeamMember(org.db, team.id, body.userId);
}

/** Takes a member out of a team, for a member allowed to delete members; it stops being their active team. */
export async function removeMemberFromTeam(org: Parts, caller: Caller, body: z.output<typeof TeamMembership>): Promise<void> {
  const { organizationId, team } = await managedTeam(org, caller, body, "delete", "YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER");
  if (!(await findTeamMember(org.db, team.id, body.userId))) throw orgError(400, "USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
  await removeTeamMember(org.db, team.id, body.userId);
  await org.request(clearActiveOrganization, { user_id: body.userId, organization_id: organizationId, team_id: team.id });
}
