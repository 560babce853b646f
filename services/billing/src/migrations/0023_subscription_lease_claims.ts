import type { Migration } from "@tollgate/kit";

export const subscriptionLeaseClaims: Migration = {
  async up(db) {
    // The renewal worker's claims are counted, so that one claim is told from the next by its count
    // rather than by its lease's end, and a replica renewing can extend its lease as long as it works.
    await db.schema.alterTable("subscriptions", (t) => {
      t.integer("lease_claims").notNullable().defaultTo(0);
    });
  },
};
