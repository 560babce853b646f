import type { Migration } from "@tollgate/kit";

export const stripeProcessor: Migration = {
  async up(db) {
    // Each customer's Stripe Customer, made once: Stripe forgets idempotency keys after a day, so the
    // link is ours to keep.
    await db.schema.createTable("stripe_customers", (t) => {
      t.text("customer_id").primary().references("id").inTable("customers").onDelete("cascade");
      t.text("stripe_customer_id").notNullable().unique();
      t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
    // Stripe's webhook events, each applied once: a delivery repeated finds its id here.
    await db.schema.createTable("stripe_events", (t) => {
      t.text("id").primary();
      t.text("type").notNullable();
      t.timestamp("received_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
    // A payment waiting for its customer (3-D Secure): the job knows which, and the checkout tells
    // its page the client secret to finish it with.
    await db.schema.alterTable("checkout_payment_jobs", (t) => {
      t.text("processor_payment_id");
    });
    await db.schema.alterTable("checkouts", (t) => {
      t.text("payment_client_secret");
    });
  },
};
