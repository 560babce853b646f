import type { Migration } from "@tollgate/kit";

export const pendingProrations: Migration = {
  async up(db) {
    await db.schema.alterTable("subscriptions", (t) => {
      // Proration lines of a plan change, billed with the next renewal.
      t.jsonb("pending_prorations").notNullable().defaultTo("[]");
    });
  },
};
