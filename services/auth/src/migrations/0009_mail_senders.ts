import type { Migration } from "@tollgate/kit";

export const mailSenders: Migration = {
  async up(db) {
    // Mail for a seller's customers goes out under the seller's name and is answered to the seller,
    // from the platform's own address (MAIL_FROM), which is the one the mail server may send from.
    await db.schema.alterTable("mails", (t) => {
      t.text("sender_name");
      t.text("reply_to");
    });
  },
};
