import type { Migration } from "@tollgate/kit";

export const twoFactor: Migration = {
  async up(db) {
    await db.schema.alterTable("users", (t) => {
      t.boolean("two_factor_enabled").notNullable().defaultTo(false);
    });
    // One authenticator per user. The secret and the backup codes are sealed with the service's
    // rotating keys: a database dump alone must not let anyone pass the second factor.
    await db.schema.createTable("two_factors", (t) => {
      t.text("id").primary();
      t.text("user_id").notNullable().unique().references("id").inTable("users").onDelete("CASCADE");
      t.text("secret").notNullable();
      t.text("backup_codes").notNullable();
      // False from enable until the first code proves the authenticator app holds the secret.
      t.boolean("verified").notNullable().defaultTo(false);
      // The last TOTP time step a code was accepted for: a code works once, not again within its step.
      t.bigInteger("last_used_step");
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
  },
};
