import type { Migration } from "@tollgate/kit";

export const mailLeaseClaims: Migration = {
  async up(db) {
    // The mail queue's claims are counted, so that one claim is told from the next by its count rather
    // than by its lease's end, and a replica sending can extend its lease as long as the conversation lasts.
    await db.schema.alterTable("mails", (t) => {
      t.integer("lease_claims").notNullable().defaultTo(0);
    });
  },
};
