import type { Knex } from "@tollgate/kit";

export interface MetricDashboardRow {
  id: string;
  organization_id: string;
  name: string;
  /** Metric slugs, in the order the dashboard shows them. */
  metrics: string[];
  created_at: Date;
  modified_at: Date | null;
}

const dashboards = (db: Knex) => db<MetricDashboardRow>("metric_dashboards");

export const findMetricDashboard = (db: Knex, id: string) => dashboards(db).where({ id }).first();

/** The dashboards of the organizations given, oldest first (the order they were made in). */
export const metricDashboardsOf = (db: Knex, organizationIds: string[]) => dashboards(db).whereIn("organization_id", organizationIds).orderBy([{ column: "created_at" }, { column: "id" }]);

export async function insertMetricDashboard(db: Knex, dashboard: Omit<MetricDashboardRow, "created_at" | "modified_at">): Promise<MetricDashboardRow> {
  const [row] = await dashboards(db).insert(dashboard).returning("*");
  if (!row) throw new Error("insert into metric_dashboards returned no row");
  return row;
}

export async function updateMetricDashboard(db: Knex, id: string, changes: Partial<Pick<MetricDashboardRow, "name" | "metrics">>): Promise<MetricDashboardRow | undefined> {
  const [row] = await dashboards(db)
    .where({ id })
    .update({ ...changes, modified_at: new Date() })
    .returning("*");
  return row;
}

export const deleteMetricDashboard = (db: Knex, id: string) => dashboards(db).where({ id }).delete();
