import type { Migration } from "@tollgate/kit";

export const passkeys: Migration = {
  async up(db) {
    // WebAuthn credentials (better-auth's passkey plugin's model): a credential id belongs to one user only.
    await db.schema.createTable("passkeys", (t) => {
      t.text("id").primary();
      t.text("user_id").notNullable().references("id").inTable("users").onDelete("CASCADE");
      t.text("name");
      t.text("credential_id").notNullable().unique();
      t.text("public_key").notNullable();
      // The authenticator's signature counter: each sign-in must show a higher one (or 0 when it keeps none).
      t.bigInteger("counter").notNullable();
      t.text("device_type").notNullable();
      t.boolean("backed_up").notNullable();
      t.text("transports");
      t.text("aaguid");
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.index(["user_id"]);
    });
  },
};
