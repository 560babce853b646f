import type { Migration } from "@tollgate/kit";

export const usersAccountsSessions: Migration = {
  async up(db) {
    await db.schema.createTable("users", (t) => {
      t.text("id").primary();
      t.text("name").notNullable();
      t.text("email").notNullable().unique();
      t.boolean("email_verified").notNullable().defaultTo(false);
      t.text("image");
      t.text("username").unique();
      t.text("display_username");
      t.text("role").notNullable().defaultTo("user");
      t.boolean("banned").notNullable().defaultTo(false);
      t.text("ban_reason");
      t.timestamp("ban_expires", { useTz: true });
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
    });

    await db.schema.createTable("accounts", (t) => {
      t.text("id").primary();
      t.text("user_id").notNullable().references("id").inTable("users").onDelete("CASCADE");
      t.text("provider_id").notNullable();
      t.text("account_id").notNullable();
      t.text("password");
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.unique(["provider_id", "account_id"]);
      t.index(["user_id"]);
    });

    // Tokens are kept only as SHA-256 digests: a leaked table opens no session.
    await db.schema.createTable("sessions", (t) => {
      t.text("id").primary();
      t.text("token_hash").notNullable().unique();
      t.text("user_id").notNullable().references("id").inTable("users").onDelete("CASCADE");
      t.timestamp("expires_at", { useTz: true }).notNullable();
      t.text("ip_address");
      t.text("user_agent");
      t.text("impersonated_by");
      t.boolean("persistent").notNullable().defaultTo(true);
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.index(["user_id"]);
    });

    await db.schema.createTable("verifications", (t) => {
      t.text("id").primary();
      t.text("identifier").notNullable().unique();
      t.text("value").notNullable();
      t.timestamp("expires_at", { useTz: true }).notNullable();
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
  },
};
