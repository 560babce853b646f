import { expect } from "vitest";
import type { Knex } from "@tollgate/kit";

/**
 * Stops billing's payment worker where it numbers a buyer's order, after the processor charged the
 * card and before anything was committed: a row lock on the buyer's customer row (made here first),
 * held by a transaction of the test's own. `stuck` waits for the worker to be blocked on it and
 * gives its backend; `crash` cuts that backend's connection mid-transaction (a replica dying);
 * `release` lets go.
 */
export async function holdOrderNumbering(db: Knex, organizationId: string, email: string) {
  await db("customers").insert({ id: `held${Date.now()}`, organization_id: organizationId, email });
  const holder = await db.transaction();
  await holder.raw("select 1 from customers where organization_id = ? and email = ? for no key update", [organizationId, email]);
  const stuck = async (): Promise<number> => {
    let pid: number | undefined;
    await expect
      .poll(async () => {
        const { rows } = await db.raw<{ rows: { pid: number }[] }>("select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%orders_count%'");
        pid = rows[0]?.pid;
        return pid;
      })
      .toBeDefined();
    return pid ?? 0;
  };
  return {
    stuck,
    async crash(): Promise<void> {
      await db.raw("select pg_terminate_backend(?)", [await stuck()]);
    },
    release: () => holder.rollback(),
  };
}
