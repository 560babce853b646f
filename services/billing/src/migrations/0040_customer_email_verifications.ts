import type { Migration } from "@tollgate/kit";

export const customerEmailVerifications: Migration = {
  async up(db) {
    // A new address a customer asked for in the portal, waiting for the link mailed to it: only the
    // token's digest is kept, for half an hour, and one customer has one pending at a time.
    await db.schema.createTable("customer_email_verifications", (t) => {
      t.text("id").primary();
      t.text("token_hash").notNullable().unique();
      t.text("email").notNullable();
      t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
      t.text("customer_id").notNullable().unique().references("id").inTable("customers").onDelete("CASCADE");
      t.timestamp("expires_at", { useTz: true }).notNullable();
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
  },
};
