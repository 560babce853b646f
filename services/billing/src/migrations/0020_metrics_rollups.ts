import type { Knex, Migration } from "@tollgate/kit";

/** The rows a statement changed (a transition table, or the table itself), as what they add to (1) or take from (-1) their rollup rows. */
type Changes = (rows: string, sign: 1 | -1) => string;

/** The kinds of paid order counted apart, by billing reason: a plan change's charge counts in the totals only. */
const ORDER_KINDS = { one_time_products: "purchase", new_subscriptions: "subscription_create", renewed_subscriptions: "subscription_cycle" };
const ORDER_MEASURES = ["orders", "revenue", "net_revenue", ...Object.keys(ORDER_KINDS).flatMap((kind) => [kind, `${kind}_revenue`, `${kind}_net_revenue`])];

/** What a paid order adds to its hour: one order, its net amount, and that less what was refunded of it, in its total and its kind's. */
const orderChanges: Changes = (rows, sign) => {
  const amounts = (counted: string) => [
    `${sign} * ${counted}`,
    `${sign} * ${counted} * (subtotal_amount - discount_amount)`,
    `${sign} * ${counted} * (subtotal_amount - discount_amount - (refunded_amount - refunded_tax_amount))`,
  ];
  const measures = [...amounts("1"), ...Object.values(ORDER_KINDS).flatMap((reason) => amounts(`(billing_reason = '${reason}')::int`))];
  return `select organization_id, date_trunc('hour', created_at) as hour, product_id, ${measures.map((measure, index) => `${measure} as ${ORDER_MEASURES[index]}`).join(", ")}
  from ${rows} where status in ('paid', 'refunded', 'partially_refunded')`;
};

const CHECKOUT_MEASURES = ["checkouts", "succeeded_checkouts"];

/** What a checkout adds to its hour: one checkout, and one succeeded when it has. */
const checkoutChanges: Changes = (rows, sign) => `
  select organization_id, date_trunc('hour', created_at) as hour, product_id, ${sign} as checkouts, ${sign} * (status = 'succeeded')::int as succeeded_checkouts
  from ${rows}`;

/**
 * Statement triggers that keep a rollup in step with its table: a statement's new rows are added and
 * its old rows taken away, grouped by the rollup's key, in one upsert in key order, so that two
 * writers lock the same rollup rows in the same order. A rollup row is locked until the writer
 * commits: a seller's paid orders and new checkouts in the same hour commit one after another.
 */
async function rollUp(db: Knex, table: string, rollup: string, key: string[], measures: string[], changes: Changes) {
  const columns = [...key, ...measures].join(", ");
  const sums = `${key.join(", ")}, ${measures.map((measure) => `sum(${measure})`).join(", ")}`;
  // An update that moves no figure (a checkout confirmed, an order's pending state) writes no rollup row.
  const moved = measures.map((measure) => `sum(${measure}) <> 0`).join(" or ");
  const from = (rows: [string, 1 | -1][]) => rows.map(([name, sign]) => changes(name, sign)).join(" union all ");
  // A trigger with transition tables answers one event only: one each, with the rows it sees.
  const events: [string, string, [string, 1 | -1][]][] = [
    ["insert", "new table as new_rows", [["new_rows", 1]]],
    ["update", "old table as old_rows new table as new_rows", [["new_rows", 1], ["old_rows", -1]]],
    ["delete", "old table as old_rows", [["old_rows", -1]]],
  ];
  for (const [event, referencing, rows] of events) {
    await db.raw(`
      create function ${rollup}_after_${event}() returns trigger language plpgsql as $$
      begin
        insert into ${rollup} (${columns})
        select ${sums} from (${from(rows)}) changes
        group by ${key.join(", ")} having ${moved}
        order by ${key.join(", ")}
        on conflict (${key.join(", ")}) do update set ${measures.map((measure) => `${measure} = ${rollup}.${measure} + excluded.${measure}`).join(", ")};
        return null;
      end $$`);
    await db.raw(`create trigger ${rollup}_after_${event} after ${event} on ${table} referencing ${referencing} for each statement execute function ${rollup}_after_${event}()`);
  }
  // What the table already holds.
  await db.raw(`insert into ${rollup} (${columns}) select ${sums} from (${from([[table, 1]])}) changes group by ${key.join(", ")}`);
}

/**
 * The seller dashboard's figures (`GET /v1/metrics/`) over a year of daily buckets must come back in
 * well under 100 ms for a seller with a million orders. Summing a million orders per request cannot
 * (about half a second here), so orders and checkouts are rolled up by UTC hour, kept in step on every
 * write by the database itself, whatever the code path (checkout, renewal, refund, void). An hour is
 * the coarsest grain that still buckets correctly in every whole-hour timezone; a seller in a
 * half-hour one is answered from the orders themselves.
 */
export const metricsRollups: Migration = {
  async up(db) {
    // Per seller, which bounds the dashboard's read however many products the seller has; and per
    // product, for figures narrowed to products or a billing type.
    const rollups = [
      { table: "orders", rollup: "order_hours", byProduct: false, measures: ORDER_MEASURES, changes: orderChanges },
      { table: "orders", rollup: "order_product_hours", byProduct: true, measures: ORDER_MEASURES, changes: orderChanges },
      { table: "checkouts", rollup: "checkout_hours", byProduct: false, measures: CHECKOUT_MEASURES, changes: checkoutChanges },
      { table: "checkouts", rollup: "checkout_product_hours", byProduct: true, measures: CHECKOUT_MEASURES, changes: checkoutChanges },
    ];
    for (const { table, rollup, byProduct, measures, changes } of rollups) {
      const key = byProduct ? ["organization_id", "hour", "product_id"] : ["organization_id", "hour"];
      await db.raw(`create table ${rollup} (
        organization_id text not null references organizations (id) on delete cascade,
        hour timestamptz not null,
        ${byProduct ? "product_id text," : ""}
        ${measures.map((measure) => `${measure} bigint not null`).join(",\n")},
        -- An order without a product (none so far) still has its hour.
        unique nulls not distinct (${key.join(", ")}))`);
      await rollUp(db, table, rollup, key, measures, changes);
    }

    // Subscriptions are read per seller by when they started and ended; a customer's figures by customer.
    await db.raw("create index subscriptions_spans on subscriptions (organization_id, started_at) include (product_id, customer_id, ended_at, ends_at, canceled_at, trial_end, amount, recurring_interval, recurring_interval_count, customer_cancellation_reason)");
    await db.raw("create index checkouts_customer on checkouts (customer_id) where customer_id is not null");
  },
};
