import { randomId, type Knex } from "@tollgate/kit";
import type { UserRow } from "../users/users.sql.js";

export interface MemberRow {
  id: string;
  organization_id: string;
  user_id: string;
  role: string;
  created_at: Date;
}

export type MemberWithUser = MemberRow & { user: Pick<UserRow, "id" | "name" | "email" | "image"> };

export const findMember = (db: Knex, organizationId: string, userId: string) =>
  db<MemberRow>("members").where({ organization_id: organizationId, user_id: userId }).first();

export const findMemberById = (db: Knex, id: string) => db<MemberRow>("members").where({ id }).first();

export async function findMemberByEmail(db: Knex, organizationId: string, email: string): Promise<MemberRow | undefined> {
  return db<MemberRow>("members")
    .join("users", "users.id", "members.user_id")
    .where({ "members.organization_id": organizationId, "users.email": email.toLowerCase() })
    .first<MemberRow | undefined>("members.*");
}

export async function insertMember(db: Knex, member: Pick<MemberRow, "organization_id" | "user_id" | "role">): Promise<MemberRow> {
  const [row] = await db<MemberRow>("members").insert({ id: randomId(32), ...member }).returning("*");
  if (!row) throw new Error("insert into members returned no row");
  return row;
}

export const countMembers = async (db: Knex, organizationId: string) =>
  (await db("members").where({ organization_id: organizationId }).count<{ count: number }[]>({ count: "*" }))[0]?.count ?? 0;

export const ownersOf = (db: Knex, organizationId: string) =>
  db<MemberRow>("members").where({ organization_id: organizationId }).whereRaw("? = any(string_to_array(replace(role, ' ', ''), ','))", ["owner"]);

export async function updateMemberRole(db: Knex, id: string, role: string): Promise<MemberRow | undefined> {
  const [row] = await db<MemberRow>("members").where({ id }).update({ role }).returning("*");
  return row;
}

export const deleteMember = (db: Knex, id: string) => db<MemberRow>("members").where({ id }).delete();

/** Members with the user each is, oldest first. */
export async function membersWithUsers(
  db: Knex,
  organizationId: string,
  page: { limit?: number; offset?: number; userId?: string } = {},
): Promise<MemberWithUser[]> {
  const query = db("members")
    .join("users", "users.id", "members.user_id")
    .where("members.organization_id", organizationId)
    .orderBy("members.created_at")
    .orderBy("members.id")
    .select<(MemberRow & { user_name: string; user_email: string; user_image: string | null })[]>(
      "members.*",
      "users.name as user_name",
      "users.email as user_email",
      "users.image as user_image",
    );
  if (page.userId !== undefined) void query.where("members.user_id", page.userId);
  if (page.limit !== undefined) void query.limit(page.limit);
  if (page.offset !== undefined) void query.offset(page.offset);
  return (await query).map(({ user_name, user_email, user_image, ...member }) => ({
    ...member,
    user: { id: member.user_id, name: user_name, email: user_email, image: user_image },
  }));
}

/** A user's memberships, in the order of their organizations (the order organizations are locked in). */
export const membershipsOfUser = (db: Knex, userId: string) => db<MemberRow>("members").where({ user_id: userId }).orderBy("organization_id");

/** An organization's members, longest-standing first. */
export const membersByAge = (db: Knex, organizationId: string) => db<MemberRow>("members").where({ organization_id: organizationId }).orderBy("created_at").orderBy("id");
