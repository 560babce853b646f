import type { UserRow } from "../users/users.sql.js";

export const SEARCH_OPERATORS = ["contains", "starts_with", "ends_with"] as const;
/** better-auth's `whereOperators`. */
export const FILTER_OPERATORS = ["eq", "ne", "lt", "lte", "gt", "gte", "in", "not_in", ...SEARCH_OPERATORS] as const;

type SearchOperator = (typeof SEARCH_OPERATORS)[number];
type FilterOperator = (typeof FILTER_OPERATORS)[number];
type Comparison = Exclude<FilterOperator, SearchOperator | "in" | "not_in">;

/** list-users' query string, as the admin client sends it. */
export interface ListUsersParams {
  searchValue?: string;
  searchField?: "email" | "name";
  searchOperator?: SearchOperator;
  limit?: string;
  offset?: string;
  sortBy?: string;
  sortDirection?: "asc" | "desc";
  filterField?: string;
  filterValue?: string | string[];
  filterOperator?: FilterOperator;
}

type Value = string | boolean | Date;
type Column = keyof UserRow;

export type Condition =
  | { column: Column; operator: Comparison; value: Value }
  | { column: Column; operator: "in" | "not_in"; values: Value[] }
  | { column: Column; operator: "like"; pattern: string };

export interface UserQuery {
  where: Condition[];
  sort?: { column: Column; direction: "asc" | "desc" };
  limit?: number;
  offset?: number;
}

type Kind = "text" | "boolean" | "date";

/** better-auth's user fields (with the admin and username plugins), as list-users names them. */
const USER_FIELDS: Readonly<Record<string, { column: Column; kind: Kind }>> = {
  id: { column: "id", kind: "text" },
  name: { column: "name", kind: "text" },
  email: { column: "email", kind: "text" },
  emailVerified: { column: "email_verified", kind: "boolean" },
  image: { column: "image", kind: "text" },
  username: { column: "username", kind: "text" },
  displayUsername: { column: "display_username", kind: "text" },
  role: { column: "role", kind: "text" },
  banned: { column: "banned", kind: "boolean" },
  banReason: { column: "ban_reason", kind: "text" },
  banExpires: { column: "ban_expires", kind: "date" },
  createdAt: { column: "created_at", kind: "date" },
  updatedAt: { column: "updated_at", kind: "date" },
};

const fieldOf = (name: string) => (Object.hasOwn(USER_FIELDS, name) ? USER_FIELDS[name] : undefined);

/** Thrown inside this module for a query better-auth's database adapter would fail on. */
class Unanswerable extends Error {}

/**
 * A query-string value as the field's type: better-auth turns "true" into true for boolean fields,
 * and the database refuses a date it cannot read.
 */
function valueOf(kind: Kind, raw: string): Value {
  if (kind === "boolean") return raw === "true";
  if (kind === "date") {
    const date = new Date(raw);
    if (Number.isNaN(date.getTime())) throw new Unanswerable();
    return date;
  }
  return raw;
}

/**
 * LIKE, case-sensitive as better-auth's adapter runs it. Unlike better-auth, `%` and `_` in the
 * searched text are matched literally rather than as wildcards.
 */
function like(column: Column, operator: SearchOperator, value: string): Condition {
  const text = value.replace(/[\\%_]/g, (char) => `\\${char}`);
  const pattern = operator === "starts_with" ? `${text}%` : operator === "ends_with" ? `%${text}` : `%${text}%`;
  return { column, operator: "like", pattern };
}

function filterOf(fieldName: string, operator: FilterOperator, raw: string | string[]): Condition {
  const field = fieldOf(fieldName);
  if (!field) throw new Unanswerable();
  if (operator === "in" || operator === "not_in") {
    // The client sends a list of one as a plain value; it is read as that list here, where
    // better-auth's adapter would fail on it and answer no users.
    return { column: field.column, operator, values: (Array.isArray(raw) ? raw : [raw]).map((item) => valueOf(field.kind, item)) };
  }
  if (Array.isArray(raw)) throw new Unanswerable();
  if (operator === "contains" || operator === "starts_with" || operator === "ends_with") {
    if (field.kind !== "text") throw new Unanswerable();
    return like(field.column, operator, raw);
  }
  return { column: field.column, operator, value: valueOf(field.kind, raw) };
}

/** better-auth's `Number(value) || undefined`; a count the database cannot take fails the query. */
function countOf(raw: string | undefined): number | undefined {
  const count = Number(raw) || undefined;
  if (count !== undefined && (!Number.isSafeInteger(count) || count < 0)) throw new Unanswerable();
  return count;
}

/**
 * The query better-auth's list-users runs for these parameters, or null for one its database adapter
 * would fail on (an unknown field, a value the column cannot hold), which list-users answers with
 * no users rather than an error.
 */
export function userQueryOf(params: ListUsersParams): UserQuery | null {
  try {
    const where: Condition[] = [];
    if (params.searchValue) where.push(like(params.searchField ?? "email", params.searchOperator ?? "contains", params.searchValue));
    if (params.filterValue !== undefined) where.push(filterOf(params.filterField ?? "email", params.filterOperator ?? "eq", params.filterValue));
    let sort: UserQuery["sort"];
    if (params.sortBy) {
      const field = fieldOf(params.sortBy);
      if (!field) throw new Unanswerable();
      sort = { column: field.column, direction: params.sortDirection ?? "asc" };
    }
    return { where, sort, limit: countOf(params.limit), offset: countOf(params.offset) };
  } catch (error) {
    if (error instanceof Unanswerable) return null;
    throw error;
  }
}
