import type { Migration } from "@tollgate/kit";

export const subscriptionChargeOrders: Migration = {
  async up(db) {
    // A plan change billed now commits its order first and charges the kept card afterwards, outside
    // any transaction; the subscription names that order and is due at once, so the renewal worker
    // charges it even when the replica that made the change died before it could.
    await db.schema.alterTable("subscriptions", (t) => {
      t.text("charge_order_id").nullable().references("id").inTable("orders");
    });
  },
};
