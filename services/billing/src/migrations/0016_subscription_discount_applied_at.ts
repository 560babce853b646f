import type { Migration } from "@tollgate/kit";

export const subscriptionDiscountAppliedAt: Migration = {
  async up(db) {
    await db.schema.alterTable("subscriptions", (t) => {
      // When the discount was first taken off an order: a repeating one runs its months from
      // then, and one applied later (by an update) starts at the next renewal.
      t.timestamp("discount_applied_at", { useTz: true });
    });
    await db("subscriptions").whereNotNull("discount_id").update({ discount_applied_at: db.ref("started_at") });
  },
};
