import type { Knex } from "@tollgate/kit";

/** The created_at and modified_at every resource table has. */
export const timestamps = (db: Knex, t: Knex.CreateTableBuilder) => {
  t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
  t.timestamp("modified_at", { useTz: true });
};
