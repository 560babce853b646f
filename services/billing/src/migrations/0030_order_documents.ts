import type { Migration } from "@tollgate/kit";

export const orderDocuments: Migration = {
  async up(db) {
    // An order's invoice (made once, as asked, and never changed after), its receipt (made again when
    // the order changed since: a refund shows on it), and a credit note for each refund of an
    // invoiced order; each a PDF in the file store.
    await db.schema.createTable("order_documents", (t) => {
      t.text("id").primary();
      t.text("order_id").notNullable().references("id").inTable("orders").onDelete("CASCADE");
      t.text("refund_id").references("id").inTable("refunds").onDelete("CASCADE");
      t.text("kind").notNullable();
      t.text("file_id").notNullable().references("id").inTable("files");
      // The order as the document printed it, told by its modified_at.
      t.timestamp("order_modified_at", { useTz: true });
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
    await db.raw("create unique index order_documents_of_order on ?? (order_id, kind) where refund_id is null", ["order_documents"]);
    await db.raw("create unique index order_documents_of_refund on ?? (refund_id) where refund_id is not null", ["order_documents"]);
  },
};
