import type { Migration } from "@tollgate/kit";

export const subscriptionReminders: Migration = {
  async up(db) {
    // The end of the period the customer was last reminded of (a trial's end, a yearly renewal), so
    // each period reminds once.
    await db.schema.alterTable("subscriptions", (t) => {
      t.timestamp("reminded_for", { useTz: true });
    });
  },
};
