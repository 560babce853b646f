import type { Migration } from "@tollgate/kit";

export const paymentAwaitingSince: Migration = {
  async up(db) {
    // Since when a payment job waits for its customer's bank: one never finished is given up after a while.
    await db.schema.alterTable("checkout_payment_jobs", (t) => {
      t.timestamp("awaiting_since", { useTz: true });
    });
  },
};
