import type { Migration } from "@tollgate/kit";

export const mails: Migration = {
  async up(db) {
    // Mail is queued with the change that causes it and delivered after commit, so none is lost.
    await db.schema.createTable("mails", (t) => {
      t.text("id").primary();
      t.text("to_address").notNullable();
      t.text("subject").notNullable();
      t.text("text").notNullable();
      t.text("html").notNullable();
      t.timestamp("run_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.integer("attempts").notNullable().defaultTo(0);
      t.timestamp("sent_at", { useTz: true });
      t.text("last_error");
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
    await db.raw("create index mails_due on ?? (run_at) where sent_at is null", ["mails"]);
  },
};
