import type { Migration } from "@tollgate/kit";

export const memberSignInCodes: Migration = {
  async up(db) {
    // A sign-in code a team's member asked for opens a session of that member, not of the whole
    // customer; null for a customer's own code (their own e-mail), as before.
    await db.schema.alterTable("customer_session_codes", (t) => {
      t.text("member_id").references("id").inTable("members").onDelete("CASCADE");
    });
  },
};
