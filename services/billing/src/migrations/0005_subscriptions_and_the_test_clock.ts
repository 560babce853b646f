import type { Knex, Migration } from "@tollgate/kit";
import { timestamps } from "./columns.js";

export const subscriptionsAndTheTestClock: Migration = {
  async up(db) {
    const organization = (t: Knex.CreateTableBuilder) => t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
    await db.schema.alterTable("organizations", (t) => {
      // The sandbox's test clock: how far ahead of real time this seller's billing runs.
      t.bigInteger("clock_offset_seconds").notNullable().defaultTo(0);
    });
    await db.schema.createTable("subscriptions", (t) => {
      t.text("id").primary();
      organization(t);
      t.text("customer_id").notNullable().references("id").inTable("customers");
      t.text("product_id").notNullable().references("id").inTable("products");
      t.text("product_price_id").notNullable().references("id").inTable("product_prices");
      t.text("checkout_id").references("id").inTable("checkouts");
      t.text("discount_id").references("id").inTable("discounts");
      t.text("status").notNullable();
      t.integer("amount").notNullable();
      t.text("currency").notNullable();
      t.text("recurring_interval").notNullable();
      t.integer("recurring_interval_count").notNullable();
      t.timestamp("current_period_start", { useTz: true }).notNullable();
      t.timestamp("current_period_end", { useTz: true }).notNullable();
      t.timestamp("trial_start", { useTz: true });
      t.timestamp("trial_end", { useTz: true });
      t.boolean("cancel_at_period_end").notNullable().defaultTo(false);
      t.timestamp("canceled_at", { useTz: true });
      t.timestamp("started_at", { useTz: true });
      t.timestamp("ends_at", { useTz: true });
      t.timestamp("ended_at", { useTz: true });
      t.text("customer_cancellation_reason");
      t.text("customer_cancellation_comment");
      // The processor's kept card that renewals are charged to.
      t.text("payment_method_id");
      // When the first renewal charge failed; dunning retries count from it.
      t.timestamp("past_due_since", { useTz: true });
      t.integer("dunning_attempts").notNullable().defaultTo(0);
      // When the subscription next needs the worker (renewal, end, dunning retry), in the seller's clock.
      t.timestamp("next_action_at", { useTz: true });
      t.jsonb("custom_field_data").notNullable().defaultTo("{}");
      t.jsonb("metadata").notNullable().defaultTo("{}");
      timestamps(db, t);
      t.index(["organization_id", "created_at"]);
      t.index(["customer_id"]);
    });
    await db.raw("create index subscriptions_due on subscriptions (next_action_at) where next_action_at is not null");
    await db.schema.alterTable("orders", (t) => {
      t.text("subscription_id").references("id").inTable("subscriptions");
      t.index(["subscription_id"]);
    });
  },
};
