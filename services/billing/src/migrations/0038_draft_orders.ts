import type { Migration } from "@tollgate/kit";

export const draftOrders: Migration = {
  async up(db) {
    // A seller's draft order (status 'draft') has no invoice number until its charge succeeds, so a
    // declined attempt uses none of the customer's numbers.
    await db.schema.alterTable("orders", (t) => {
      t.text("invoice_number").nullable().alter();
    });
  },
};
