import type { Migration } from "@tollgate/kit";

export const subscriptionRetryTrigger: Migration = {
  async up(db) {
    // Why a past-due renewal's charge is tried next when it is: the customer gave a new card
    // ('retry_payment_method_update'), or none set: the dunning schedule. The payment records it
    // (Polar's payment trigger), and the try clears it.
    await db.schema.alterTable("subscriptions", (t) => {
      t.text("retry_trigger");
    });
  },
};
