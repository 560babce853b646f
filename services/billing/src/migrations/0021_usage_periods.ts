import type { Migration } from "@tollgate/kit";

export const usagePeriods: Migration = {
  async up(db) {
    // The usage a renewal bills, written under its claim before it charges the card: a retry after a
    // crash between the charge and the settling bills exactly this (the charge's key is the same, so
    // the amount must be too), and settling clears it.
    await db.schema.alterTable("subscriptions", (t) => {
      t.jsonb("renewal_usage").nullable();
    });
    // A unique meter counts the distinct values a customer sent this period: each value with when it
    // was last measured, and the customer meter with when its period started (null: from the first).
    await db.schema.alterTable("customer_meters", (t) => {
      t.timestamp("period_start", { useTz: true }).nullable();
    });
    await db.schema.createTable("customer_meter_values", (t) => {
      t.text("customer_id").notNullable();
      t.text("meter_id").notNullable().references("id").inTable("meters").onDelete("CASCADE");
      t.text("value").notNullable();
      t.timestamp("measured_at", { useTz: true }).notNullable();
      t.primary(["meter_id", "customer_id", "value"]);
    });
    // The values unique meters measured so far, as if measured now: the current period keeps them.
    await db.raw(
      `insert into customer_meter_values (customer_id, meter_id, value, measured_at)
       select distinct value.customer_key, value.meter_id, value.value, now() from meter_unique_values value
       join customer_meters standing on standing.customer_id = value.customer_key and standing.meter_id = value.meter_id`,
    );
  },
};
