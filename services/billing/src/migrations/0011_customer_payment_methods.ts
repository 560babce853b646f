import type { Migration } from "@tollgate/kit";
import { timestamps } from "./columns.js";

export const customerPaymentMethods: Migration = {
  async up(db) {
    // Cards a customer keeps with the processor (its id; brand, last 4 and expiry only).
    await db.schema.createTable("customer_payment_methods", (t) => {
      t.text("id").primary();
      t.text("customer_id").notNullable().references("id").inTable("customers").onDelete("CASCADE");
      t.jsonb("card").notNullable();
      timestamps(db, t);
      t.index(["customer_id"]);
    });
    await db.schema.alterTable("customers", (t) => {
      t.text("default_payment_method_id");
    });
  },
};
