import type { Migration } from "@tollgate/kit";
import { timestamps } from "./columns.js";

export const disputes: Migration = {
  async up(db) {
    // A buyer's bank disputing a payment, as the processor reports it; one row per processor dispute.
    await db.schema.createTable("disputes", (t) => {
      t.text("id").primary();
      t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
      t.text("order_id").notNullable().references("id").inTable("orders");
      t.text("payment_id").notNullable().references("id").inTable("payments");
      t.text("processor").notNullable();
      t.text("processor_dispute_id").notNullable();
      t.text("status").notNullable();
      t.integer("amount").notNullable();
      t.text("currency").notNullable();
      timestamps(db, t);
      t.unique(["processor", "processor_dispute_id"]);
      t.index(["order_id"]);
    });
  },
};
