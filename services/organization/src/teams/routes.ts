import { z } from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { clearActiveOrganization, setActiveOrganization, teamCreated, teamDeleted, teamUpdated, type IdentityClaims } from "@tollgate/proto";
import { requireCaller } from "../caller.js";
import { orgError, type OrgErrorCode } from "../http/errors.js";
import { organizationIdFor } from "../membership.js";
import { findMember } from "../members/members.sql.js";
import type { Parts } from "../parts.js";
import { hasPermission } from "../roles/permissions.js";
import { teamEventData, teamJson, teamMemberJson } from "./output.js";
import { Team, TeamMember, TeamRemoval } from "./schemas.js";
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
} from "./teams.sql.js";

const teamMembershipBody = z.object({ teamId: z.string(), userId: z.coerce.string(), organizationId: z.string().optional() });

export function teamEndpoints(org: Parts): Endpoint[] {
  const { config, db, units } = org;

  /** The team a caller adds people to or takes them out of: they must be allowed to change members. */
  async function manageTeamMembers(identity: IdentityClaims, body: z.output<typeof teamMembershipBody>, action: "update" | "delete", refusal: OrgErrorCode) {
    const caller = await requireCaller(org, identity);
    const organizationId = organizationIdFor(caller, body.organizationId);
    const actor = await findMember(db, organizationId, caller.user_id);
    if (!actor) throw orgError(400, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    if (!hasPermission(actor.role, { member: [action] })) throw orgError(403, refusal);
    const team = await findTeam(db, organizationId, body.teamId);
    if (!team) throw orgError(400, "TEAM_NOT_FOUND");
    return { organizationId, team };
  }

  return [
    defineEndpoint(
      "/organization/create-team",
      { method: "POST", body: z.object({ name: z.string().min(1), organizationId: z.string().optional() }), response: Team, summary: "Create a team in an organization", tag: "Organization" },
      async ({ body, identity }) => {
        const caller = await requireCaller(org, identity);
        const organizationId = organizationIdFor(caller, body.organizationId);
        const member = await findMember(db, organizationId, caller.user_id);
        if (!member) throw orgError(403, "YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION");
        if (!hasPermission(member.role, { team: ["create"] })) throw orgError(403, "YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION");
        return units.run(async (unit) => {
          const team = await insertTeam(unit.db, organizationId, body.name);
          unit.announce(teamCreated, teamEventData(team));
          return teamJson(team);
        });
      },
    ),

    defineEndpoint(
      "/organization/remove-team",
      { method: "POST", body: z.object({ teamId: z.string(), organizationId: z.string().optional() }), response: TeamRemoval, summary: "Delete a team", tag: "Organization" },
      async ({ body, identity }) => {
        const caller = await requireCaller(org, identity);
        const organizationId = organizationIdFor(caller, body.organizationId);
        const member = await findMember(db, organizationId, caller.user_id);
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
        return { message: "Team removed successfully." };
      },
    ),

    defineEndpoint(
      "/organization/update-team",
      {
        method: "POST",
        body: z.object({ teamId: z.string(), data: z.object({ name: z.string().min(1).optional(), organizationId: z.string().optional() }) }),
        response: Team,
        summary: "Rename a team",
        tag: "Organization",
      },
      async ({ body, identity }) => {
        const caller = await requireCaller(org, identity);
        const organizationId = organizationIdFor(caller, body.data.organizationId);
        const member = await findMember(db, organizationId, caller.user_id);
        if (!member || !hasPermission(member.role, { team: ["update"] })) throw orgError(403, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM");
        const team = await findTeam(db, organizationId, body.teamId);
        if (!team) throw orgError(400, "TEAM_NOT_FOUND");
        if (body.data.name === undefined) return teamJson(team);
        const name = body.data.name;
        return units.run(async (unit) => {
          const updated = await updateTeam(unit.db, team.id, name);
          if (!updated) throw orgError(400, "TEAM_NOT_FOUND");
          unit.announce(teamUpdated, teamEventData(updated));
          return teamJson(updated);
        });
      },
    ),

    defineEndpoint(
      "/organization/list-teams",
      { method: "GET", query: z.object({ organizationId: z.string().optional() }), response: z.array(Team), summary: "List an organization's teams", tag: "Organization" },
      async ({ query, identity }) => {
        const caller = await requireCaller(org, identity);
        const organizationId = organizationIdFor(caller, query.organizationId);
        if (!(await findMember(db, organizationId, caller.user_id))) throw orgError(403, "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
        return (await listTeams(db, organizationId)).map(teamJson);
      },
    ),

    defineEndpoint(
      "/organization/set-active-team",
      {
        method: "POST",
        body: z.object({ teamId: z.string().nullable().optional() }),
        response: Team.nullable(),
        summary: "Make one of the caller's teams in the active organization the session's active team (null clears it)",
        tag: "Organization",
      },
      async ({ body, identity }) => {
        const caller = await requireCaller(org, identity);
        if (!body.teamId) {
          if (caller.active_team_id && body.teamId === null) {
            await org.request(setActiveOrganization, { session_id: caller.id, organization_id: caller.active_organization_id, team_id: null });
          }
          return null;
        }
        const organizationId = organizationIdFor(caller, undefined);
        const team = await findTeam(db, organizationId, body.teamId);
        if (!team) throw orgError(400, "TEAM_NOT_FOUND");
        if (!(await findTeamMember(db, team.id, caller.user_id))) throw orgError(403, "USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
        await org.request(setActiveOrganization, { session_id: caller.id, organization_id: organizationId, team_id: team.id });
        return teamJson(team);
      },
    ),

    defineEndpoint(
      "/organization/list-user-teams",
      { method: "GET", response: z.array(Team), summary: "List the teams the caller belongs to, in every organization", tag: "Organization" },
      async ({ identity }) => {
        const caller = await requireCaller(org, identity);
        return (await teamsOfUser(db, caller.user_id)).map(teamJson);
      },
    ),

    defineEndpoint(
      "/organization/list-team-members",
      { method: "GET", query: z.object({ teamId: z.string().optional() }), response: z.array(TeamMember), summary: "List a team's members (the active team's by default)", tag: "Organization" },
      async ({ query, identity }) => {
        const caller = await requireCaller(org, identity);
        const teamId = query.teamId ?? caller.active_team_id;
        if (!teamId) throw orgError(400, "YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM");
        const team = await findTeamById(db, teamId);
        if (!team) throw orgError(400, "TEAM_NOT_FOUND");
        if (!(await findTeamMember(db, team.id, caller.user_id))) throw orgError(400, "USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
        return (await listTeamMembers(db, team.id)).map(teamMemberJson);
      },
    ),

    defineEndpoint(
      "/organization/add-team-member",
      { method: "POST", body: teamMembershipBody, response: TeamMember, summary: "Add a member of the organization to a team", tag: "Organization" },
      async ({ body, identity }) => {
        const { organizationId, team } = await manageTeamMembers(identity, body, "update", "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER");
        if (!(await findMember(db, organizationId, body.userId))) throw orgError(400, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
        return teamMemberJson(await addTeamMember(db, team.id, body.userId));
      },
    ),

    defineEndpoint(
      "/organization/remove-team-member",
      { method: "POST", body: teamMembershipBody, response: TeamRemoval, summary: "Take a member out of a team", tag: "Organization" },
      async ({ body, identity }) => {
        const { organizationId, team } = await manageTeamMembers(identity, body, "delete", "YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER");
        if (!(await findTeamMember(db, team.id, body.userId))) throw orgError(400, "USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
        await removeTeamMember(db, team.id, body.userId);
        await org.request(clearActiveOrganization, { user_id: body.userId, organization_id: organizationId, team_id: team.id });
        return { message: "Team member removed successfully." };
      },
    ),
  ];
}
