import type { Migration } from "@tollgate/kit";

export const userLocale: Migration = {
  async up(db) {
    // The language the user chose for the app and their mail; null until they choose one.
    await db.schema.alterTable("users", (t) => {
      t.text("locale");
    });
  },
};
