import type { Migration } from "@tollgate/kit";
import { timestamps } from "./columns.js";

export const sandboxPayments: Migration = {
  async up(db) {
    // The sandbox processor's own records; a real processor keeps these on its side.
    await db.schema.createTable("sandbox_confirmation_tokens", (t) => {
      t.text("id").primary();
      t.jsonb("card").notNullable();
      t.text("behaviour").notNullable();
      t.timestamp("used_at", { useTz: true });
      t.timestamp("expires_at", { useTz: true }).notNullable();
      timestamps(db, t);
    });
    await db.schema.createTable("sandbox_payment_methods", (t) => {
      t.text("id").primary();
      t.jsonb("card").notNullable();
      t.text("behaviour").notNullable();
      timestamps(db, t);
    });
    await db.schema.createTable("sandbox_operations", (t) => {
      t.text("idempotency_key").primary();
      t.jsonb("outcome").notNullable();
      timestamps(db, t);
    });
  },
};
