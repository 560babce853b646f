import type { Migration } from "@tollgate/kit";

export const orderInvoicedAt: Migration = {
  async up(db) {
    // When the order's invoice was made: Polar's `is_invoice_generated`, told without reading the documents.
    await db.schema.alterTable("orders", (t) => {
      t.timestamp("invoiced_at", { useTz: true });
    });
    await db.raw("update orders set invoiced_at = document.created_at from order_documents document where document.order_id = orders.id and document.kind = 'invoice'");
  },
};
