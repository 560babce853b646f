import type { Knex } from "@tollgate/kit";
import type { UserRow } from "../users/users.sql.js";

/** better-auth's user field names, as list-users takes them, and their columns. */
const COLUMNS: Record<string, keyof UserRow> = {
  id: "id",
  name: "name",
  email: "email",
  emailVerified: "email_verified",
  image: "image",
  username: "username",
  displayUsername: "display_username",
  role: "role",
  banned: "banned",
  banReason: "ban_reason",
  banExpires: "ban_expires",
  createdAt: "created_at",
  updatedAt: "updated_at",
};

export const columnOf = (field: string): keyof UserRow | undefined => COLUMNS[field];

export interface UserQuery {
  search?: { column: keyof UserRow; operator: "contains" | "starts_with" | "ends_with"; value: string };
  filter?: { column: keyof UserRow; operator: string; value: string | number | boolean | (string | number)[] };
  sort?: { column: keyof UserRow; direction: "asc" | "desc" };
  limit?: number;
  offset?: number;
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

function applyWhere(query: Knex.QueryBuilder, where: UserQuery): void {
  if (where.search) {
    const { column, operator, value } = where.search;
    const pattern = operator === "starts_with" ? `${escapeLike(value)}%` : operator === "ends_with" ? `%${escapeLike(value)}` : `%${escapeLike(value)}%`;
    void query.whereILike(column, pattern);
  }
  if (where.filter) {
    const { column, operator, value } = where.filter;
    const list = Array.isArray(value) ? value : [value];
    const comparisons: Record<string, string> = { eq: "=", ne: "<>", lt: "<", lte: "<=", gt: ">", gte: ">=" };
    if (operator === "in") void query.whereIn(column, list);
    else if (operator === "not_in") void query.whereNotIn(column, list);
    else if (operator === "contains" || operator === "starts_with" || operator === "ends_with") applyWhere(query, { search: { column, operator, value: String(value) } });
    else void query.where(column, comparisons[operator] ?? "=", value as string | number | boolean);
  }
}

/** One page of users matching the search and filter, and how many match in all. */
export async function queryUsers(db: Knex, where: UserQuery): Promise<{ users: UserRow[]; total: number }> {
  const page = db<UserRow>("users").select("*");
  applyWhere(page, where);
  void page.orderBy(where.sort?.column ?? "created_at", where.sort?.direction ?? "asc").orderBy("id");
  if (where.limit !== undefined) void page.limit(where.limit);
  if (where.offset !== undefined) void page.offset(where.offset);
  const count = db<UserRow>("users").count<{ count: number }[]>({ count: "*" });
  applyWhere(count, where);
  const [users, counted] = await Promise.all([page, count]);
  return { users, total: counted[0]?.count ?? 0 };
}
