import type { Knex, Migration } from "@tollgate/kit";
import { timestamps } from "./columns.js";

export const teamCustomersAndSeats: Migration = {
  async up(db) {
    const organization = (t: Knex.CreateTableBuilder) => t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
    // Polar's customer types: an individual buys for themselves, a team buys seats for its members.
    await db.schema.alterTable("customers", (t) => {
      t.text("type").notNullable().defaultTo("individual");
    });
    await db.raw("alter table customers add constraint customers_type check (type in ('individual', 'team'))");

    // The people of a customer (Polar's members): an owner, billing managers, members. A member
    // removed is kept (deleted_at) so seats, grants and sessions that named them still read.
    await db.schema.createTable("members", (t) => {
      t.text("id").primary();
      organization(t);
      t.text("customer_id").notNullable().references("id").inTable("customers").onDelete("CASCADE");
      t.text("email").notNullable();
      t.text("name");
      t.text("external_id");
      t.text("role").notNullable();
      timestamps(db, t);
      t.timestamp("deleted_at", { useTz: true });
      t.index(["customer_id"]);
    });
    await db.raw("alter table members add constraint members_role check (role in ('owner', 'billing_manager', 'member'))");
    await db.raw("create unique index members_email on members (customer_id, lower(email)) where deleted_at is null");
    await db.raw("create unique index members_external_id on members (customer_id, external_id) where external_id is not null and deleted_at is null");

    // A portal session may be a member's: they see what their seat gives them, not the whole customer.
    await db.schema.alterTable("customer_sessions", (t) => {
      t.text("member_id").references("id").inTable("members").onDelete("CASCADE");
    });

    // A seat-based price: its tiers ({seat_tier_type, tiers: [{min_seats, max_seats, price_per_seat}]}).
    await db.schema.alterTable("product_prices", (t) => t.jsonb("seat_tiers"));
    // How many seats a checkout sells, an order bought and a subscription pays for (null: not seat-based).
    for (const table of ["checkouts", "orders", "subscriptions"]) {
      await db.schema.alterTable(table, (t) => t.integer("seats"));
    }

    // A seat of a seat-based subscription or order: pending (invited), claimed, or revoked. Only the
    // invitation token's digest is kept; the token goes out once, in the claim link.
    await db.schema.createTable("customer_seats", (t) => {
      t.text("id").primary();
      organization(t);
      t.text("subscription_id").references("id").inTable("subscriptions").onDelete("CASCADE");
      t.text("order_id").references("id").inTable("orders").onDelete("CASCADE");
      // The customer who bought the seat.
      t.text("customer_id").notNullable().references("id").inTable("customers").onDelete("CASCADE");
      t.text("member_id").references("id").inTable("members").onDelete("SET NULL");
      t.text("email");
      t.text("status").notNullable().defaultTo("pending");
      t.text("invitation_token_hash").unique();
      t.timestamp("invitation_token_expires_at", { useTz: true });
      t.timestamp("claimed_at", { useTz: true });
      t.timestamp("revoked_at", { useTz: true });
      t.jsonb("metadata").notNullable().defaultTo("{}");
      timestamps(db, t);
      t.index(["subscription_id"]);
      t.index(["order_id"]);
      t.index(["member_id"]);
    });
    await db.raw("alter table customer_seats add constraint customer_seats_source check ((subscription_id is null) <> (order_id is null))");
    await db.raw("alter table customer_seats add constraint customer_seats_status check (status in ('pending', 'claimed', 'revoked'))");
    // One live seat per member and purchase.
    await db.raw(
      "create unique index customer_seats_member on customer_seats (coalesce(subscription_id, order_id), member_id) where member_id is not null and status <> 'revoked'",
    );

    // Grants and license keys held through a seat name its member; a purchase then grants a benefit
    // once per member instead of once per customer.
    await db.schema.alterTable("benefit_grants", (t) => {
      t.text("member_id").references("id").inTable("members").onDelete("SET NULL");
    });
    await db.raw("drop index benefit_grants_per_purchase");
    await db.raw("create unique index benefit_grants_per_purchase on benefit_grants (benefit_id, customer_id, coalesce(subscription_id, order_id), coalesce(member_id, ''))");
    await db.schema.alterTable("license_keys", (t) => {
      t.text("member_id").references("id").inTable("members").onDelete("SET NULL");
    });
  },
};
