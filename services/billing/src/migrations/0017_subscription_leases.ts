import type { Migration } from "@tollgate/kit";

export const subscriptionLeases: Migration = {
  async up(db) {
    // The renewal worker holds a subscription by a lease while it charges the card outside any
    // transaction; a subscription is its own schedule (next_action_at), so no jobs table repeats it.
    await db.schema.alterTable("subscriptions", (t) => {
      t.timestamp("leased_until", { useTz: true });
    });
  },
};
