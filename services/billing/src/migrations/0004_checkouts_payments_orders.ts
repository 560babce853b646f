import type { Knex, Migration } from "@tollgate/kit";
import { timestamps } from "./columns.js";

export const checkoutsPaymentsOrders: Migration = {
  async up(db) {
    const organization = (t: Knex.CreateTableBuilder) => t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
    await db.schema.createTable("checkouts", (t) => {
      t.text("id").primary();
      organization(t);
      t.text("client_secret").notNullable().unique();
      t.text("status").notNullable().defaultTo("open");
      t.specificType("product_ids", "text[]").notNullable();
      t.text("product_id").notNullable().references("id").inTable("products");
      t.text("product_price_id").notNullable().references("id").inTable("product_prices");
      t.integer("amount").notNullable();
      t.text("currency").notNullable();
      t.text("discount_id").references("id").inTable("discounts");
      t.boolean("allow_discount_codes").notNullable();
      t.boolean("require_billing_address").notNullable();
      t.boolean("allow_trial").notNullable();
      t.text("customer_id").references("id").inTable("customers");
      t.text("external_customer_id");
      t.boolean("is_business_customer").notNullable();
      t.text("customer_name");
      t.text("customer_email");
      t.text("customer_ip_address");
      t.text("customer_billing_name");
      t.jsonb("customer_billing_address");
      t.text("customer_tax_id");
      t.jsonb("customer_metadata").notNullable().defaultTo("{}");
      t.jsonb("custom_field_data").notNullable().defaultTo("{}");
      t.jsonb("metadata").notNullable().defaultTo("{}");
      t.text("success_url");
      t.text("return_url");
      t.text("embed_origin");
      t.text("locale");
      // Why the last payment was declined, shown to the customer until they try again.
      t.text("payment_error");
      t.timestamp("expires_at", { useTz: true }).notNullable();
      timestamps(db, t);
      t.index(["organization_id", "created_at"]);
      t.index(["expires_at"]);
    });
    // A confirmed checkout waiting to be paid; taken by the payment worker with a lease.
    await db.schema.createTable("checkout_payment_jobs", (t) => {
      t.text("checkout_id").primary().references("id").inTable("checkouts").onDelete("CASCADE");
      // Sent with the processor call: a retry of this confirmation is the same payment.
      t.text("idempotency_key").notNullable();
      t.text("confirmation_token_id");
      t.timestamp("run_at", { useTz: true }).notNullable().index();
      t.timestamp("leased_until", { useTz: true });
      t.integer("attempts").notNullable().defaultTo(0);
    });
    await db.schema.alterTable("organizations", (t) => {
      // Numbers the seller's invoices, one after another.
      t.integer("orders_count").notNullable().defaultTo(0);
    });
    await db.schema.createTable("orders", (t) => {
      t.text("id").primary();
      organization(t);
      t.text("customer_id").notNullable().references("id").inTable("customers");
      t.text("product_id").references("id").inTable("products");
      t.text("checkout_id").unique().references("id").inTable("checkouts");
      t.text("discount_id").references("id").inTable("discounts");
      t.text("status").notNullable();
      t.text("billing_reason").notNullable();
      t.integer("subtotal_amount").notNullable();
      t.integer("discount_amount").notNullable();
      t.integer("tax_amount").notNullable();
      t.integer("refunded_amount").notNullable().defaultTo(0);
      t.integer("refunded_tax_amount").notNullable().defaultTo(0);
      t.text("currency").notNullable();
      t.text("billing_name");
      t.jsonb("billing_address");
      t.text("invoice_number").notNullable();
      t.jsonb("custom_field_data").notNullable().defaultTo("{}");
      t.jsonb("metadata").notNullable().defaultTo("{}");
      timestamps(db, t);
      t.index(["organization_id", "created_at"]);
      t.index(["customer_id"]);
    });
    await db.schema.createTable("order_items", (t) => {
      t.text("id").primary();
      t.text("order_id").notNullable().references("id").inTable("orders").onDelete("CASCADE");
      t.text("label").notNullable();
      t.integer("amount").notNullable();
      t.integer("tax_amount").notNullable();
      t.boolean("proration").notNullable();
      t.text("product_price_id").references("id").inTable("product_prices");
      t.integer("position").notNullable();
      timestamps(db, t);
      t.index(["order_id"]);
    });
    await db.schema.createTable("payments", (t) => {
      t.text("id").primary();
      organization(t);
      t.text("checkout_id").references("id").inTable("checkouts");
      t.text("order_id").references("id").inTable("orders");
      t.text("processor").notNullable();
      // The processor's id for it; a retried call answers the same one, so it is recorded once.
      t.text("processor_payment_id").unique();
      t.text("status").notNullable();
      t.integer("amount").notNullable();
      t.text("currency").notNullable();
      t.text("card_brand");
      t.text("card_last4");
      t.text("decline_code");
      t.text("decline_message");
      timestamps(db, t);
      t.index(["checkout_id"]);
    });
  },
};
