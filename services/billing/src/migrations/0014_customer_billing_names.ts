import type { Migration } from "@tollgate/kit";

export const customerBillingNames: Migration = {
  async up(db) {
    await db.schema.alterTable("customers", (t) => {
      t.text("billing_name");
    });
  },
};
