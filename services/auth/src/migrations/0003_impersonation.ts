import type { Migration } from "@tollgate/kit";

export const impersonation: Migration = {
  async up(db) {
    // The admin's own session, to return to when impersonation stops (tokens are only digests,
    // so the admin gets a fresh session for it rather than the old cookie back).
    await db.schema.alterTable("sessions", (t) => {
      t.text("impersonator_session_id");
    });
  },
};
