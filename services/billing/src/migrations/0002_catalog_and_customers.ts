import type { Knex, Migration } from "@tollgate/kit";
import { timestamps } from "./columns.js";

export const catalogAndCustomers: Migration = {
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
};
