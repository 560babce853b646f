import type { Migration } from "@tollgate/kit";

export const verificationAttempts: Migration = {
  async up(db) {
    // A mailed one-time code may be guessed at: each wrong try is counted on its row, and past a
    // few the code is dead, whoever tries next.
    await db.schema.alterTable("verifications", (t) => {
      t.integer("attempts").notNullable().defaultTo(0);
    });
  },
};
