import type { Migration } from "@tollgate/kit";

export const mailLeases: Migration = {
  async up(db) {
    // A replica holds the mail it sends by a lease rather than a row lock, so no transaction stays
    // open through an SMTP conversation.
    await db.schema.alterTable("mails", (t) => {
      t.timestamp("leased_until", { useTz: true });
    });
  },
};
