import { createHash } from "node:crypto";
import type { Knex } from "./connection.js";

/**
 * Names a statement after its text, so each connection prepares and plans it once (generic plans,
 * see createDatabase) rather than at every run: for statements a hot path runs again and again.
 * Not for statements whose text follows their data (a list of N values), which would leave a
 * prepared statement behind on the connection for every N. Its result must not follow a table's
 * columns (`select *`, `returning *`): once a migration adds one, Postgres refuses to run it on that
 * connection ("cached plan must not change result type"), so a replica still running the previous
 * release would fail. Answer rows as `to_json(row)`, or name the columns.
 */
export function prepared<Query extends Knex.QueryBuilder | Knex.Raw>(query: Query): Query {
  const { sql } = query.toSQL();
  query.options({ name: `prepared_${createHash("sha1").update(sql).digest("hex")}` });
  return query;
}
