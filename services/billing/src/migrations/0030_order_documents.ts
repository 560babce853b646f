import type { Migration } from "@tollgate/kit";

export const orderDocuments: Migration = {
  async up(db) {
    // An order's invoice (made once, as asked, and never changed after) and its receipt (made again
    // when the order changed since: a refund shows on it), each a PDF in the file store.
    await db.schema.createTable("order_documents", (t) => {
      t.text("order_id").notNullable().references("id").inTable("orders").onDelete("CASCADE");
      t.text("kind").notNullable();
      t.text("file_id").notNullable().references("id").inTable("files");
      // The order as the document printed it, told by its modified_at.
      t.timestamp("order_modified_at", { useTz: true });
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.primary(["order_id", "kind"]);
    });
  },
};
