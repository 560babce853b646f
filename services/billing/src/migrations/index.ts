import { membershipMigrations, type Knex, type Migrations } from "@tollgate/kit";

const timestamps = (db: Knex, t: Knex.CreateTableBuilder) => {
  t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
  t.timestamp("modified_at", { useTz: true });
};

export const billingMigrations: Migrations = {
  ...membershipMigrations,
  "0001_sellers_and_tokens": {
    async up(db) {
      // A seller: an organization of the organization service, as billing extends it.
      await db.schema.createTable("organizations", (t) => {
        t.text("id").primary();
        t.text("name").notNullable();
        t.text("slug").notNullable();
        t.text("avatar_url");
        t.text("email");
        t.text("website");
        t.jsonb("socials").notNullable().defaultTo("[]");
        t.jsonb("details");
        t.timestamp("details_submitted_at", { useTz: true });
        t.text("country");
        t.text("default_presentment_currency").notNullable().defaultTo("usd");
        t.text("default_tax_behavior").notNullable().defaultTo("location");
        t.jsonb("feature_settings").notNullable().defaultTo("{}");
        t.jsonb("subscription_settings").notNullable().defaultTo("{}");
        t.jsonb("notification_settings").notNullable().defaultTo("{}");
        t.jsonb("customer_email_settings").notNullable().defaultTo("{}");
        t.jsonb("customer_portal_settings").notNullable().defaultTo("{}");
        timestamps(db, t);
        t.timestamp("deleted_at", { useTz: true });
      });
      // Tokens are kept only as SHA-256 digests: a leaked table opens nothing.
      await db.schema.createTable("access_tokens", (t) => {
        t.text("id").primary();
        t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
        t.text("token_hash").notNullable().unique();
        t.text("comment").notNullable();
        t.specificType("scopes", "text[]").notNullable();
        t.timestamp("expires_at", { useTz: true });
        t.timestamp("last_used_at", { useTz: true });
        timestamps(db, t);
        t.index(["organization_id"]);
      });
    },
  },
  "0002_catalog_and_customers": {
    async up(db) {
      const organization = (t: Knex.CreateTableBuilder) => t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
      await db.schema.createTable("custom_fields", (t) => {
        t.text("id").primary();
        organization(t);
        t.text("type").notNullable();
        t.text("slug").notNullable();
        t.text("name").notNullable();
        t.jsonb("properties").notNullable();
        t.jsonb("metadata").notNullable().defaultTo("{}");
        timestamps(db, t);
        t.unique(["organization_id", "slug"]);
      });
      await db.schema.createTable("benefits", (t) => {
        t.text("id").primary();
        organization(t);
        t.text("type").notNullable();
        t.text("description").notNullable();
        t.jsonb("properties").notNullable();
        t.jsonb("metadata").notNullable().defaultTo("{}");
        t.boolean("selectable").notNullable().defaultTo(true);
        t.boolean("deletable").notNullable().defaultTo(true);
        t.boolean("is_deleted").notNullable().defaultTo(false);
        timestamps(db, t);
        t.index(["organization_id"]);
      });
      await db.schema.createTable("files", (t) => {
        t.text("id").primary();
        organization(t);
        t.text("service").notNullable();
        t.text("name").notNullable();
        t.text("path").notNullable();
        t.text("mime_type").notNullable();
        t.bigInteger("size").notNullable();
        t.text("version");
        t.text("checksum_sha256_base64");
        t.text("checksum_sha256_hex");
        t.text("checksum_etag");
        t.text("storage_version");
        // The store's handle for an upload in progress (an S3 multipart upload id), null on the local disk.
        t.text("upload_id");
        // The parts the uploader was told to send, until the upload is completed.
        t.jsonb("upload_parts").notNullable().defaultTo("[]");
        t.boolean("is_uploaded").notNullable().defaultTo(false);
        t.timestamp("last_modified_at", { useTz: true });
        timestamps(db, t);
        t.timestamp("deleted_at", { useTz: true });
        t.index(["organization_id"]);
      });
      await db.schema.createTable("products", (t) => {
        t.text("id").primary();
        organization(t);
        t.text("name").notNullable();
        t.text("description");
        t.text("visibility").notNullable().defaultTo("public");
        t.text("recurring_interval");
        t.integer("recurring_interval_count");
        t.text("trial_interval");
        t.integer("trial_interval_count");
        t.boolean("is_archived").notNullable().defaultTo(false);
        t.jsonb("metadata").notNullable().defaultTo("{}");
        timestamps(db, t);
        t.index(["organization_id"]);
      });
      // Prices are never changed in place: a change archives the old price and adds a new one.
      await db.schema.createTable("product_prices", (t) => {
        t.text("id").primary();
        t.text("product_id").notNullable().references("id").inTable("products").onDelete("CASCADE");
        t.text("amount_type").notNullable();
        t.text("price_currency").notNullable();
        t.text("tax_behavior");
        t.integer("price_amount");
        t.integer("minimum_amount");
        t.integer("maximum_amount");
        t.integer("preset_amount");
        // Metered units may cost fractions of the minor unit.
        t.decimal("unit_amount", 20, 12);
        t.integer("cap_amount");
        t.text("meter_id");
        t.boolean("is_archived").notNullable().defaultTo(false);
        t.integer("position").notNullable().defaultTo(0);
        timestamps(db, t);
        t.index(["product_id"]);
      });
      const link = (table: string, other: string, extra?: (t: Knex.CreateTableBuilder) => void) =>
        db.schema.createTable(table, (t) => {
          t.text("product_id").notNullable().references("id").inTable("products").onDelete("CASCADE");
          t.text(`${other}_id`).notNullable().references("id").inTable(`${other}s`).onDelete("CASCADE");
          t.integer("position").notNullable();
          extra?.(t);
          t.primary(["product_id", `${other}_id`]);
        });
      await link("product_benefits", "benefit");
      await link("product_medias", "file");
      await link("product_custom_fields", "custom_field", (t) => t.boolean("required").notNullable());
      await db.schema.createTable("discounts", (t) => {
        t.text("id").primary();
        organization(t);
        t.text("name").notNullable();
        t.text("type").notNullable();
        t.text("duration").notNullable();
        t.integer("duration_in_months");
        t.integer("amount");
        t.text("currency");
        t.integer("basis_points");
        t.text("code");
        t.timestamp("starts_at", { useTz: true });
        t.timestamp("ends_at", { useTz: true });
        t.integer("max_redemptions");
        t.integer("redemptions_count").notNullable().defaultTo(0);
        t.jsonb("metadata").notNullable().defaultTo("{}");
        timestamps(db, t);
        t.timestamp("deleted_at", { useTz: true });
      });
      // Codes are unique per organization whatever their case, among discounts not deleted.
      await db.raw("create unique index discounts_code on ?? (organization_id, lower(code)) where code is not null and deleted_at is null", ["discounts"]);
      await db.schema.createTable("discount_products", (t) => {
        t.text("discount_id").notNullable().references("id").inTable("discounts").onDelete("CASCADE");
        t.text("product_id").notNullable().references("id").inTable("products").onDelete("CASCADE");
        t.primary(["discount_id", "product_id"]);
      });
      await db.schema.createTable("customers", (t) => {
        t.text("id").primary();
        organization(t);
        t.text("email").notNullable();
        t.boolean("email_verified").notNullable().defaultTo(false);
        t.text("name");
        t.text("external_id");
        t.jsonb("billing_address");
        t.text("tax_id");
        t.text("locale");
        t.jsonb("metadata").notNullable().defaultTo("{}");
        timestamps(db, t);
        t.timestamp("deleted_at", { useTz: true });
      });
      await db.raw("create unique index customers_email on ?? (organization_id, email) where deleted_at is null", ["customers"]);
      await db.raw("create unique index customers_external_id on ?? (organization_id, external_id) where external_id is not null and deleted_at is null", ["customers"]);
      await db.schema.createTable("benefit_grants", (t) => {
        t.text("id").primary();
        t.text("benefit_id").notNullable().references("id").inTable("benefits").onDelete("CASCADE");
        t.text("customer_id").notNullable().references("id").inTable("customers").onDelete("CASCADE");
        t.text("subscription_id");
        t.text("order_id");
        t.timestamp("granted_at", { useTz: true });
        t.timestamp("revoked_at", { useTz: true });
        t.jsonb("properties").notNullable().defaultTo("{}");
        t.jsonb("error");
        timestamps(db, t);
        t.index(["customer_id"]);
        t.index(["benefit_id"]);
      });
      // Scheduled customer.state_changed announcements, one per customer, run when due.
      await db.schema.createTable("customer_state_changes", (t) => {
        t.text("customer_id").primary().references("id").inTable("customers").onDelete("CASCADE");
        t.timestamp("run_at", { useTz: true }).notNullable().index();
      });
    },
  },
  "0003_sandbox_payments": {
    async up(db) {
      // The sandbox processor's own records; a real processor keeps these on its side.
      await db.schema.createTable("sandbox_confirmation_tokens", (t) => {
        t.text("id").primary();
        t.jsonb("card").notNullable();
        t.text("behaviour").notNullable();
        t.timestamp("used_at", { useTz: true });
        t.timestamp("expires_at", { useTz: true }).notNullable();
        timestamps(db, t);
      });
      await db.schema.createTable("sandbox_payment_methods", (t) => {
        t.text("id").primary();
        t.jsonb("card").notNullable();
        t.text("behaviour").notNullable();
        timestamps(db, t);
      });
      await db.schema.createTable("sandbox_operations", (t) => {
        t.text("idempotency_key").primary();
        t.jsonb("outcome").notNullable();
        timestamps(db, t);
      });
    },
  },
  "0004_checkouts_payments_orders": {
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
  },
  "0005_subscriptions_and_the_test_clock": {
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
  },
  "0006_refunds": {
    async up(db) {
      await db.schema.createTable("refunds", (t) => {
        t.text("id").primary();
        t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
        t.text("order_id").notNullable().references("id").inTable("orders");
        t.text("subscription_id").references("id").inTable("subscriptions");
        t.text("customer_id").notNullable().references("id").inTable("customers");
        t.text("status").notNullable();
        t.text("reason").notNullable();
        t.text("comment");
        t.integer("amount").notNullable();
        t.integer("tax_amount").notNullable();
        t.text("currency").notNullable();
        t.boolean("revoke_benefits").notNullable();
        t.text("processor_refund_id");
        t.jsonb("metadata").notNullable().defaultTo("{}");
        timestamps(db, t);
        t.index(["organization_id", "created_at"]);
        t.index(["order_id"]);
      });
    },
  },
  "0007_grants_from_purchases_and_license_keys": {
    async up(db) {
      // One grant of a benefit per subscription, or per order for a one-time purchase.
      await db.raw("create unique index benefit_grants_per_purchase on benefit_grants (benefit_id, customer_id, coalesce(subscription_id, order_id))");
      await db.schema.createTable("license_keys", (t) => {
        t.text("id").primary();
        t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
        t.text("customer_id").notNullable().references("id").inTable("customers").onDelete("CASCADE");
        t.text("benefit_id").notNullable().references("id").inTable("benefits").onDelete("CASCADE");
        t.text("key").notNullable();
        t.text("status").notNullable();
        t.integer("limit_activations");
        t.integer("usage").notNullable().defaultTo(0);
        t.integer("limit_usage");
        t.integer("validations").notNullable().defaultTo(0);
        t.timestamp("last_validated_at", { useTz: true });
        t.timestamp("expires_at", { useTz: true });
        timestamps(db, t);
        t.unique(["organization_id", "key"]);
        t.index(["customer_id"]);
      });
      await db.schema.createTable("license_key_activations", (t) => {
        t.text("id").primary();
        t.text("license_key_id").notNullable().references("id").inTable("license_keys").onDelete("CASCADE");
        t.text("label").notNullable();
        t.jsonb("conditions").notNullable().defaultTo("{}");
        t.jsonb("meta").notNullable().defaultTo("{}");
        timestamps(db, t);
        t.index(["license_key_id"]);
      });
    },
  },
  "0008_customer_sessions": {
    async up(db) {
      await db.schema.createTable("customer_sessions", (t) => {
        t.text("id").primary();
        // Only the token's SHA-256 digest is kept; the token is shown once, when made.
        t.text("token_hash").notNullable().unique();
        t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
        t.text("customer_id").notNullable().references("id").inTable("customers").onDelete("CASCADE");
        t.text("return_url");
        t.timestamp("expires_at", { useTz: true }).notNullable();
        timestamps(db, t);
      });
    },
  },
  "0009_checkout_links": {
    async up(db) {
      await db.schema.createTable("checkout_links", (t) => {
        t.text("id").primary();
        t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
        t.text("client_secret").notNullable().unique();
        t.specificType("product_ids", "text[]").notNullable();
        t.text("label");
        t.boolean("allow_discount_codes").notNullable();
        t.boolean("require_billing_address").notNullable();
        t.text("discount_id").references("id").inTable("discounts");
        t.text("success_url");
        t.text("return_url");
        t.jsonb("metadata").notNullable().defaultTo("{}");
        t.timestamp("deleted_at", { useTz: true });
        timestamps(db, t);
        t.index(["organization_id", "created_at"]);
      });
    },
  },
  "0010_invoice_numbers_per_customer": {
    async up(db) {
      // Numbering invoices per seller made every order of a seller wait on one row; per customer, as Polar does, they do not.
      await db.schema.alterTable("customers", (t) => {
        t.integer("orders_count").notNullable().defaultTo(0);
      });
      await db.schema.alterTable("organizations", (t) => {
        t.dropColumn("orders_count");
      });
    },
  },
  "0011_customer_payment_methods": {
    async up(db) {
      // Cards a customer keeps with the processor (its id; brand, last 4 and expiry only).
      await db.schema.createTable("customer_payment_methods", (t) => {
        t.text("id").primary();
        t.text("customer_id").notNullable().references("id").inTable("customers").onDelete("CASCADE");
        t.jsonb("card").notNullable();
        timestamps(db, t);
        t.index(["customer_id"]);
      });
      await db.schema.alterTable("customers", (t) => {
        t.text("default_payment_method_id");
      });
    },
  },
  "0012_pending_prorations": {
    async up(db) {
      await db.schema.alterTable("subscriptions", (t) => {
        // Proration lines of a plan change, billed with the next renewal.
        t.jsonb("pending_prorations").notNullable().defaultTo("[]");
      });
    },
  },
  "0013_people": {
    async up(db) {
      // Tollgate's own users, as auth announces them: who may see purchases made under their e-mail.
      await db.schema.createTable("people", (t) => {
        t.text("user_id").primary();
        t.text("email").notNullable();
        t.boolean("email_verified").notNullable();
        timestamps(db, t);
        t.index(["email"]);
      });
    },
  },
  "0014_customer_billing_names": {
    async up(db) {
      await db.schema.alterTable("customers", (t) => {
        t.text("billing_name");
      });
    },
  },
  "0015_sandbox_token_keys": {
    async up(db) {
      await db.schema.alterTable("sandbox_confirmation_tokens", (t) => {
        // The idempotency key that used the token: a repeat of that payment takes it again.
        t.text("used_by");
      });
      // Outcomes now follow from the key and the token, so the sandbox keeps no table of them.
      await db.schema.dropTable("sandbox_operations");
    },
  },
  "0016_subscription_discount_applied_at": {
    async up(db) {
      await db.schema.alterTable("subscriptions", (t) => {
        // When the discount was first taken off an order: a repeating one runs its months from
        // then, and one applied later (by an update) starts at the next renewal.
        t.timestamp("discount_applied_at", { useTz: true });
      });
      await db("subscriptions").whereNotNull("discount_id").update({ discount_applied_at: db.ref("started_at") });
    },
  },
};
