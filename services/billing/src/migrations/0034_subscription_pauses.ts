import type { Migration } from "@tollgate/kit";

export const subscriptionPauses: Migration = {
  async up(db) {
    // Polar's pause: asked for the end of the period (pause_at_period_end), taken then (status paused,
    // paused_at), and left either until resumed by hand or until resumes_at, when the renewal worker
    // starts a new period (next_action_at).
    await db.schema.alterTable("subscriptions", (t) => {
      t.boolean("pause_at_period_end").notNullable().defaultTo(false);
      t.timestamp("paused_at", { useTz: true });
      t.timestamp("resumes_at", { useTz: true });
    });
  },
};
