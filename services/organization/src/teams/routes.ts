import { z } from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { requireCaller } from "../caller.js";
import type { Parts } from "../parts.js";
import { teamJson, teamMemberJson } from "./output.js";
import { ActiveTeamChoice, Team, TeamCreate, TeamListQuery, TeamMember, TeamMemberQuery, TeamMembership, TeamRemoval, TeamRemovalRequest, TeamUpdate } from "./schemas.js";
import { activateTeam, addMemberToTeam, callerTeams, createTeam, organizationTeams, removeMemberFromTeam, removeTeam, renameTeam, teamMembers } from "./service.js";

export function teamEndpoints(org: Parts): Endpoint[] {
  return [
    defineEndpoint(
      "/organization/create-team",
      { method: "POST", body: TeamCreate, response: Team, summary: "Create a team in an organization", tag: "Organization" },
      async ({ body, identity }) => teamJson(await createTeam(org, await requireCaller(org, identity), body)),
    ),

    defineEndpoint(
      "/organization/remove-team",
      { method: "POST", body: TeamRemovalRequest, response: TeamRemoval, summary: "Delete a team", tag: "Organization" },
      async ({ body, identity }) => {
        await removeTeam(org, await requireCaller(org, identity), body);
        return { message: "Team removed successfully." };
      },
    ),

    defineEndpoint(
      "/organization/update-team",
      { method: "POST", body: TeamUpdate, response: Team, summary: "Rename a team", tag: "Organization" },
      async ({ body, identity }) => teamJson(await renameTeam(org, await requireCaller(org, identity), body)),
    ),

    defineEndpoint(
      "/organization/list-teams",
      { method: "GET", query: TeamListQuery, response: z.array(Team), summary: "List an organization's teams", tag: "Organization" },
      async ({ query, identity }) => (await organizationTeams(org, await requireCaller(org, identity), query.organizationId)).map(teamJson),
    ),

    defineEndpoint(
      "/organization/set-active-team",
      {
        method: "POST",
        body: ActiveTeamChoice,
        response: Team.nullable(),
        summary: "Make one of the caller's teams in the active organization the session's active team (null clears it)",
        tag: "Organization",
      },
      async ({ body, identity }) => {
        const team = await activateTeam(org, await requireCaller(org, identity), body);
        return team && teamJson(team);
      },
    ),

    defineEndpoint(
      "/organization/list-user-teams",
      { method: "GET", response: z.array(Team), summary: "List the teams the caller belongs to, in every organization", tag: "Organization" },
      async ({ identity }) => (await callerTeams(org, await requireCaller(org, identity))).map(teamJson),
    ),

    defineEndpoint(
      "/organization/list-team-members",
      { method: "GET", query: TeamMemberQuery, response: z.array(TeamMember), summary: "List a team's members (the active team's by default)", tag: "Organization" },
      async ({ query, identity }) => (await teamMembers(org, await requireCaller(org, identity), query.teamId)).map(teamMemberJson),
    ),

    defineEndpoint(
      "/organization/add-team-member",
      { method: "POST", body: TeamMembership, response: TeamMember, summary: "Add a member of the organization to a team", tag: "Organization" },
      async ({ body, identity }) => teamMemberJson(await addMemberToTeam(org, await requireCaller(org, identity), body)),
    ),

    defineEndpoint(
      "/organization/remove-team-member",
      { method: "POST", body: TeamMembership, response: TeamRemoval, summary: "Take a member out of a team", tag: "Organization" },
      async ({ body, identity }) => {
        await removeMemberFromTeam(org, await requireCaller(org, identity), body);
        return { message: "Team member removed successfully." };
      },
    ),
  ];
}
