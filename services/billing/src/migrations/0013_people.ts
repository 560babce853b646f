import type { Migration } from "@tollgate/kit";
import { timestamps } from "./columns.js";

export const people: Migration = {
  async up(db) {
    // Tollgate's own users, as auth announces them: who may see purchases made under their e-mail.
    await db.schema.createTable("people", (t) => {
      t.text("user_id").primary();
      t.text("email").notNullable();
      t.boolean("email_verified").notNullable();
      timestamps(db, t);
      t.index(["email"]);
    });
  },
};
