import type { Migration } from "@tollgate/kit";

export const fileDownloads: Migration = {
  async up(db) {
    // How often each customer downloaded each file of a downloadables benefit, counted as the
    // portal's link sends them to the file. Keyed benefit first, so a benefit's statistics per file
    // (downloads, distinct downloaders) are read from the key alone.
    await db.schema.createTable("file_downloads", (t) => {
      t.text("benefit_id").notNullable().references("id").inTable("benefits").onDelete("CASCADE");
      t.text("file_id").notNullable().references("id").inTable("files").onDelete("CASCADE");
      t.text("customer_id").notNullable().references("id").inTable("customers").onDelete("CASCADE");
      t.integer("downloads").notNullable();
      t.timestamp("last_downloaded_at", { useTz: true }).notNullable();
      t.primary(["benefit_id", "file_id", "customer_id"]);
    });
  },
};
