import type { Migration } from "@tollgate/kit";

export const requireTwoFactor: Migration = {
  async up(db) {
    // Tollgate's own setting beside better-auth's organization: its owners may require two-factor of every member.
    await db.schema.alterTable("organizations", (t) => {
      t.boolean("require_two_factor").notNullable().defaultTo(false);
    });
  },
};
