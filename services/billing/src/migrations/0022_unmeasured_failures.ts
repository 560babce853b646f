import type { Migration } from "@tollgate/kit";

export const unmeasuredFailures: Migration = {
  async up(db) {
    // An event put back in line after it failed to be measured. Only such events are looked up among
    // set-aside work when a pass takes events (and have their failures forgotten once measured), so
    // the events that never failed, nearly all of them, cost a pass nothing more. A constant default:
    // adding the column rewrites nothing.
    await db.schema.alterTable("usage_events_unmeasured", (t) => {
      t.boolean("failed").notNullable().defaultTo(false);
    });
  },
};
