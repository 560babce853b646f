import type { TeamMemberRow, TeamRow } from "./teams.sql.js";

export const teamJson = (team: TeamRow) => ({
  id: team.id,
  name: team.name,
  organizationId: team.organization_id,
  createdAt: team.created_at,
  updatedAt: team.updated_at,
});

export const teamMemberJson = (member: TeamMemberRow) => ({ id: member.id, teamId: member.team_id, userId: member.user_id, createdAt: member.created_at });

export const teamEventData = (team: TeamRow) => ({ id: team.id, organization_id: team.organization_id, name: team.name });
