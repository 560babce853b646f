import type { Migrations } from "@tollgate/kit";

export const authMigrations: Migrations = {
  "0001_users_accounts_sessions": {
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
  },
  "0002_mails": {
    async up(db) {
      // Mail is queued with the change that causes it and delivered after commit, so none is lost.
      await db.schema.createTable("mails", (t) => {
        t.text("id").primary();
        t.text("to_address").notNullable();
        t.text("subject").notNullable();
        t.text("text").notNullable();
        t.text("html").notNullable();
        t.timestamp("run_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.integer("attempts").notNullable().defaultTo(0);
        t.timestamp("sent_at", { useTz: true });
        t.text("last_error");
        t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
      });
      await db.raw("create index mails_due on ?? (run_at) where sent_at is null", ["mails"]);
    },
  },
  "0003_impersonation": {
    async up(db) {
      // The admin's own session, to return to when impersonation stops (tokens are only digests,
      // so the admin gets a fresh session for it rather than the old cookie back).
      await db.schema.alterTable("sessions", (t) => {
        t.text("impersonator_session_id");
      });
    },
  },
  "0004_active_organization": {
    async up(db) {
      // Set by the organization service through NATS; the ids are that service's, not foreign keys here.
      await db.schema.alterTable("sessions", (t) => {
        t.text("active_organization_id");
        t.text("active_team_id");
      });
    },
  },
  "0005_provider_accounts": {
    async up(db) {
      // Provider tokens, sealed (AES-256-GCM) by the auth service before they are stored.
      await db.schema.alterTable("accounts", (t) => {
        t.text("access_token");
        t.text("refresh_token");
        t.text("id_token");
        t.timestamp("access_token_expires_at", { useTz: true });
        t.timestamp("refresh_token_expires_at", { useTz: true });
        t.text("scope");
      });
    },
  },
};
