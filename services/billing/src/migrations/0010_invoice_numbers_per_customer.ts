import type { Migration } from "@tollgate/kit";

export const invoiceNumbersPerCustomer: Migration = {
  async up(db) {
    // Numbering invoices per seller made every order of a seller wait on one row; per customer, as Polar does, they do not.
    await db.schema.alterTable("customers", (t) => {
      t.integer("orders_count").notNullable().defaultTo(0);
    });
    await db.schema.alterTable("organizations", (t) => {
      t.dropColumn("orders_count");
    });
  },
};
