import type { Migration } from "@tollgate/kit";
import { timestamps } from "./columns.js";

export const customerSessions: Migration = {
  async up(db) {
    await db.schema.createTable("customer_sessions", (t) => {
      t.text("id").primary();
      // Only the token's SHA-256 digest is kept; the token is shown once, when made.
      t.text("token_hash").notNullable().unique();
      t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
      t.text("customer_id").notNullable().references("id").inTable("customers").onDelete("CASCADE");
      t.text("return_url");
      t.timestamp("expires_at", { useTz: true }).notNullable();
      timestamps(db, t);
    });
  },
};
