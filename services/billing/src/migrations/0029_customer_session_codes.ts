import type { Migration } from "@tollgate/kit";

export const customerSessionCodes: Migration = {
  async up(db) {
    // Codes a customer asked for by e-mail to open their portal: only a digest is kept, for a few
    // minutes, and a code is forgotten once used.
    await db.schema.createTable("customer_session_codes", (t) => {
      t.text("id").primary();
      t.text("code_hash").notNullable().unique();
      t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
      t.text("customer_id").notNullable().references("id").inTable("customers").onDelete("CASCADE");
      t.timestamp("expires_at", { useTz: true }).notNullable();
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.index(["customer_id"]);
    });
  },
};
