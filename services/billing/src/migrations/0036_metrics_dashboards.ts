import type { Migration } from "@tollgate/kit";
import { timestamps } from "./columns.js";

export const metricsDashboards: Migration = {
  async up(db) {
    // Polar's metric dashboards: a seller's named choice of metrics (slugs, in the order shown).
    await db.schema.createTable("metric_dashboards", (t) => {
      t.text("id").primary();
      t.text("organization_id").notNullable().references("id").inTable("organizations").onDelete("CASCADE");
      t.text("name").notNullable();
      t.specificType("metrics", "text[]").notNullable().defaultTo("{}");
      timestamps(db, t);
      t.index(["organization_id", "created_at"]);
    });
  },
};
