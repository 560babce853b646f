import type { Knex } from "@tollgate/kit";
import type { UserRow } from "../users/users.sql.js";
import type { Condition, UserQuery } from "./user-query.js";

const COMPARISONS = { eq: "=", ne: "<>", lt: "<", lte: "<=", gt: ">", gte: ">=" } as const;

function applyWhere(query: Knex.QueryBuilder, where: Condition[]): void {
  for (const condition of where) {
    const { column } = condition;
    if (condition.operator === "like") void query.where(column, "like", condition.pattern);
    else if ("values" in condition) void (condition.operator === "in" ? query.whereIn(column, condition.values) : query.whereNotIn(column, condition.values));
    else void query.where(column, COMPARISONS[condition.operator], condition.value);
  }
}

/** One page of the users the query matches, and how many it matches in all. */
export async function queryUsers(db: Knex, query: UserQuery): Promise<{ users: UserRow[]; total: number }> {
  const page = db<UserRow>("users").select("*");
  applyWhere(page, query.where);
  // Ties (and no sort at all) still come in a stable order, so pages neither repeat nor skip users.
  void page.orderBy(query.sort?.column ?? "created_at", query.sort?.direction ?? "asc").orderBy("id");
  if (query.limit !== undefined) void page.limit(query.limit);
  if (query.offset !== undefined) void page.offset(query.offset);
  const count = db<UserRow>("users").count<{ count: number }[]>({ count: "*" });
  applyWhere(count, query.where);
  const [users, counted] = await Promise.all([page, count]);
  return { users, total: counted[0]?.count ?? 0 };
}
