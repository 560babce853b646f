import type { Migration } from "@tollgate/kit";

export const providerAccounts: Migration = {
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
};
