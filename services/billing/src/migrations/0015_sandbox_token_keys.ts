import type { Migration } from "@tollgate/kit";

export const sandboxTokenKeys: Migration = {
  async up(db) {
    await db.schema.alterTable("sandbox_confirmation_tokens", (t) => {
      // The idempotency key that used the token: a repeat of that payment takes it again.
      t.text("used_by");
    });
    // Outcomes now follow from the key and the token, so the sandbox keeps no table of them.
    await db.schema.dropTable("sandbox_operations");
  },
};
