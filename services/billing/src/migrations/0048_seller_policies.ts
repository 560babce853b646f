import type { Migration } from "@tollgate/kit";

export const sellerPolicies: Migration = {
  async up(db) {
    // Where a seller's terms of service and refund policy are read: the checkout links them beside
    // the support e-mail, so a buyer knows what they agree to before paying (Polar has no such fields).
    await db.schema.alterTable("organizations", (t) => {
      t.text("terms_of_service_url");
      t.text("refund_policy_url");
    });
  },
};
