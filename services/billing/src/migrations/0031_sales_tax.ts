import type { Migration } from "@tollgate/kit";

export const salesTax: Migration = {
  async up(db) {
    // Where a seller charges tax, and what their invoices say of them: the address and tax number.
    await db.schema.alterTable("organizations", (t) => {
      t.jsonb("tax_registrations").notNullable().defaultTo("[]");
      t.jsonb("address");
      t.text("tax_id");
    });
    // How each order was taxed, as its invoice states it: the behaviour and rate, a reverse charge,
    // and the buyer's tax number as it stood (the customer may change theirs later).
    await db.schema.alterTable("orders", (t) => {
      t.text("tax_behavior");
      t.integer("tax_rate");
      t.boolean("reverse_charge").notNullable().defaultTo(false);
      t.text("customer_tax_id");
    });
  },
};
