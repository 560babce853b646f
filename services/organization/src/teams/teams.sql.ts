import { randomId, type Knex } from "@tollgate/kit";

export interface TeamRow {
  id: string;
  organization_id: string;
  name: string;
  created_at: Date;
  updated_at: Date | null;
}

export interface TeamMemberRow {
  id: string;
  team_id: string;
  user_id: string;
  created_at: Date;
}

export const findTeam = (db: Knex, organizationId: string, id: string) => db<TeamRow>("teams").where({ id, organization_id: organizationId }).first();
export const findTeamById = (db: Knex, id: string) => db<TeamRow>("teams").where({ id }).first();
export const listTeams = (db: Knex, organizationId: string) => db<TeamRow>("teams").where({ organization_id: organizationId }).orderBy("created_at");

export async function insertTeam(db: Knex, organizationId: string, name: string): Promise<TeamRow> {
  const [row] = await db<TeamRow>("teams").insert({ id: randomId(32), organization_id: organizationId, name }).returning("*");
  if (!row) throw new Error("insert into teams returned no row");
  return row;
}

export async function updateTeam(db: Knex, id: string, name: string): Promise<TeamRow | undefined> {
  const [row] = await db<TeamRow>("teams").where({ id }).update({ name, updated_at: new Date() }).returning("*");
  return row;
}

export const deleteTeam = (db: Knex, id: string) => db<TeamRow>("teams").where({ id }).delete();

/** Adds a user to a team unless already there; returns the membership either way. */
export async function addTeamMember(db: Knex, teamId: string, userId: string): Promise<TeamMemberRow> {
  await db<TeamMemberRow>("team_members").insert({ id: randomId(32), team_id: teamId, user_id: userId }).onConflict(["team_id", "user_id"]).ignore();
  const row = await db<TeamMemberRow>("team_members").where({ team_id: teamId, user_id: userId }).first();
  if (!row) throw new Error("team membership vanished");
  return row;
}

export const removeTeamMember = (db: Knex, teamId: string, userId: string) => db<TeamMemberRow>("team_members").where({ team_id: teamId, user_id: userId }).delete();

export const findTeamMember = (db: Knex, teamId: string, userId: string) => db<TeamMemberRow>("team_members").where({ team_id: teamId, user_id: userId }).first();

export const listTeamMembers = (db: Knex, teamId: string) => db<TeamMemberRow>("team_members").where({ team_id: teamId }).orderBy("created_at");

/** The teams of one organization a user belongs to (all organizations when none is given). */
export function teamsOfUser(db: Knex, userId: string, organizationId?: string) {
  const query = db<TeamRow>("teams").join("team_members", "team_members.team_id", "teams.id").where("team_members.user_id", userId).orderBy("teams.created_at");
  if (organizationId) void query.where("teams.organization_id", organizationId);
  return query.select<TeamRow[]>("teams.*");
}

/** A member's team memberships in an organization go with the membership. */
export const removeFromOrganizationTeams = (db: Knex, organizationId: string, userId: string) =>
  db<TeamMemberRow>("team_members").where({ user_id: userId }).whereIn("team_id", db("teams").select("id").where({ organization_id: organizationId })).delete();
