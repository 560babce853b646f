import type { Migration } from "@tollgate/kit";

export const organizationLinks: Migration = {
  async up(db) {
    // A team customer whose seats follow the membership of one of the buyer's own Tollgate
    // organizations: asked for by the seller, consented to by an owner of that organization.
    await db.schema.createTable("customer_organization_links", (t) => {
      t.text("customer_id").primary().references("id").inTable("customers").onDelete("CASCADE");
      // The seller's organization, as every seller-owned row has it.
      t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
      // The buyer's organization, once consented to; null while the link awaits consent.
      t.text("linked_organization_id");
      t.text("linked_by_user_id");
      // The consent link the customer's owner opened from the portal: only its digest, for a short while.
      t.text("consent_token_hash").unique();
      t.timestamp("consent_token_expires_at", { useTz: true });
      t.timestamp("requested_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp("linked_at", { useTz: true });
      t.index(["linked_organization_id"]);
    });
    // Each member of a linked organization as the seats see them: the seat they hold, or why they
    // hold none. The newest membership event applied is kept, so one retried late cannot undo a newer one.
    await db.schema.createTable("linked_organization_members", (t) => {
      t.text("customer_id").notNullable().references("customer_id").inTable("customer_organization_links").onDelete("CASCADE");
      t.text("user_id").notNullable();
      t.text("email");
      t.text("seat_id").references("id").inTable("customer_seats").onDelete("SET NULL");
      t.text("status").notNullable();
      t.text("reason");
      t.timestamp("changed_at", { useTz: true }).notNullable();
      t.primary(["customer_id", "user_id"]);
    });
    await db.raw("alter table linked_organization_members add constraint linked_organization_members_status check (status in ('seated', 'refused', 'left'))");
  },
};
