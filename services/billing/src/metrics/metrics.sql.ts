import type { Knex } from "@tollgate/kit";
import { CANCELLATION_REASONS } from "../subscriptions/subscriptions.sql.js";
import type { MetricPart } from "./definitions.js";

export type TimeInterval = "hour" | "day" | "week" | "month" | "year";

/** What the figures are for, named as the statement's parameters. */
export interface MetricsFilters {
  organizations: string[];
  timezone: string;
  interval: TimeInterval;
  /** The first and last days of the range, in the seller's timezone (YYYY-MM-DD). */
  first_day: string;
  last_day: string;
  products: string[] | null;
  billing_types: ("one_time" | "recurring")[] | null;
  customers: string[] | null;
}

export interface MetricsQuery {
  /**
   * Where orders and checkouts are summed from: the hourly rollups per seller, or per product when
   * narrowed to products or a billing type, or the rows themselves for a customer (the rollups are
   * not kept per customer) or in a timezone whose midnight falls within an hour.
   */
  source: "seller_hours" | "product_hours" | "rows";
  /** The tables the metrics asked for come from. */
  parts: Set<MetricPart>;
}

/** One bucket's figures as SQL sums them (bigint sums come back as text from pg). */
export type MetricsRow = { timestamp: Date } & Record<string, string | number | Date>;

// The products a query may count: those named, of the billing types named.
// crosses into products: a product's billing type is whether it recurs, which only products know
const PRODUCTS_FILTER = `(cast(:products as text[]) is null or product_id = any(:products))
  and (cast(:billing_types as text[]) is null or product_id in (
    select id from products where organization_id = any(:organizations)
      and (case when recurring_interval is null then 'one_time' else 'recurring' end) = any(:billing_types)))`;

/** Paid orders counted apart by billing reason (a plan change's charge counts in the totals only), as the rollups keep them. */
const ORDER_KINDS = { one_time_products: "purchase", new_subscriptions: "subscription_create", renewed_subscriptions: "subscription_cycle" };
const ORDER_MEASURES = ["orders", "revenue", "net_revenue", ...Object.keys(ORDER_KINDS).flatMap((kind) => [kind, `${kind}_revenue`, `${kind}_net_revenue`])];
const CHECKOUT_MEASURES = ["checkouts", "succeeded_checkouts"];
const sumsOf = (measures: string[]) => measures.map((measure) => `sum(${measure}) as ${measure}`).join(", ");

const IN_RANGE = (column: string) => `organization_id = any(:organizations) and ${column} >= (select starts from bounds) and ${column} < (select ends from bounds)`;
const ORDERS_BY_SELLER_HOUR = `select hour as at, ${ORDER_MEASURES.join(", ")} from order_hours where ${IN_RANGE("hour")}`;
const ORDERS_BY_PRODUCT_HOUR = `select hour as at, ${ORDER_MEASURES.join(", ")} from order_product_hours where ${IN_RANGE("hour")} and ${PRODUCTS_FILTER}`;
// crosses into orders: a customer's figures, and a half-hour timezone's, are summed from their orders (the rollups keep neither)
const ORDERS_ONE_BY_ONE = `select created_at as at, 1 as orders, paid.revenue, paid.net_revenue,
    ${Object.entries(ORDER_KINDS)
      .map(([kind, reason]) => `(billing_reason = '${reason}')::int as ${kind}, paid.revenue * (billing_reason = '${reason}')::int as ${kind}_revenue, paid.net_revenue * (billing_reason = '${reason}')::int as ${kind}_net_revenue`)
      .join(",\n    ")}
  from orders, lateral (select subtotal_amount - discount_amount as revenue, subtotal_amount - discount_amount - (refunded_amount - refunded_tax_amount) as net_revenue) paid
  where ${IN_RANGE("created_at")} and status in ('paid', 'refunded', 'partially_refunded')
    and (cast(:customers as text[]) is null or customer_id = any(:customers)) and ${PRODUCTS_FILTER}`;

const CHECKOUTS_BY_SELLER_HOUR = `select hour as at, checkouts, succeeded_checkouts from checkout_hours where ${IN_RANGE("hour")}`;
const CHECKOUTS_BY_PRODUCT_HOUR = `select hour as at, checkouts, succeeded_checkouts from checkout_product_hours where ${IN_RANGE("hour")} and ${PRODUCTS_FILTER}`;
// crosses into checkouts: as for orders, a customer's checkouts are counted one by one
const CHECKOUTS_ONE_BY_ONE = `select created_at as at, 1 as checkouts, (status = 'succeeded')::int as succeeded_checkouts
  from checkouts where ${IN_RANGE("created_at")} and (cast(:customers as text[]) is null or customer_id = any(:customers)) and ${PRODUCTS_FILTER}`;

const SOURCES = {
  seller_hours: { orders: ORDERS_BY_SELLER_HOUR, checkouts: CHECKOUTS_BY_SELLER_HOUR },
  product_hours: { orders: ORDERS_BY_PRODUCT_HOUR, checkouts: CHECKOUTS_BY_PRODUCT_HOUR },
  rows: { orders: ORDERS_ONE_BY_ONE, checkouts: CHECKOUTS_ONE_BY_ONE },
};

// An instant's bucket, by binary search among the buckets' first instants (the range's end last):
// cheaper than converting every row to local time. 0 before the range, past the last bucket after it.
const bucketOf = (column: string) => `width_bucket(${column}, (select starts from edges))`;
const REASON_COLUMNS = CANCELLATION_REASONS.map((reason) => `count(*) filter (where reason = '${reason}') as canceled_subscriptions_${reason}`).join(",\n    ");
const MONTHLY_AMOUNT = `round(case recurring_interval
    when 'year' then amount / (12.0 * recurring_interval_count)
    when 'month' then amount / (1.0 * recurring_interval_count)
    when 'week' then amount * 52 / (12.0 * recurring_interval_count)
    else amount * 365 / (12.0 * recurring_interval_count) end)`;

/**
 * Since when a subscription paused now has been paused: it neither counts as active nor pays into
 * MRR from then, and it has not churned. Earlier pauses are not kept, so they are not seen.
 */
const PAUSED_SINCE = "case when status = 'paused' then paused_at end";

const running = (column: string, as: string) => `sum(coalesce(${column}, 0)) over running as ${as}`;

/**
 * What each part of the figures adds to the answer. Postgres skips a CTE no output refers to, so a
 * request for some metrics reads only the tables they come from.
 */
const PART_OUTPUTS: Record<MetricPart, { columns: string; joins: string }> = {
  orders: {
    columns: ["orders_by_bucket.*", running("orders_by_bucket.revenue", "cumulative_revenue"), running("orders_by_bucket.net_revenue", "net_cumulative_revenue")].join(", "),
    joins: "left join orders_by_bucket using (bucket)",
  },
  checkouts: { columns: "checkouts_by_bucket.*", joins: "left join checkouts_by_bucket using (bucket)" },
  subscriptions: {
    columns: [
      "cancellations_by_bucket.*",
      "churn_by_bucket.*",
      "coalesce(revenue_per_customer_by_bucket.average_revenue_per_user, 0) as average_revenue_per_user",
      ...["active", "committed"].map((stock) => running(`subscription_changes_by_bucket.${stock}`, `${stock}_subscriptions`)),
      ...[
        ["paying", "monthly_recurring_revenue"],
        ["committed_paying", "committed_monthly_recurring_revenue"],
        ["trialing", "trial_monthly_recurring_revenue"],
        ["committed_trialing", "trial_committed_monthly_recurring_revenue"],
      ].map(([change = "", metric = ""]) => running(`subscription_changes_by_bucket.${change}`, metric)),
    ].join(", "),
    joins: "left join subscription_changes_by_bucket using (bucket) left join cancellations_by_bucket using (bucket) left join churn_by_bucket using (bucket) left join revenue_per_customer_by_bucket using (bucket)",
  },
};

/**
 * Every figure per bucket of the range, in one statement. Buckets are `generate_series` over the
 * seller's local time; flows (orders, checkouts, cancellations) are summed into their bucket, and
 * stocks (active subscriptions, MRR) are running sums of what starts and ends in each bucket, so a
 * year of days costs one pass over the seller's subscriptions, not one per day.
 */
// crosses into subscriptions: a reporting read of the seller's subscriptions (active, MRR, cancellations), never a write
const METRICS_SQL = (source: MetricsQuery["source"], parts: Set<MetricPart>) => `
with series as (
  select t, row_number() over (order by t) as bucket
  from generate_series(date_trunc(:interval, cast(:first_day as date)::timestamp), (cast(:last_day as date) + 1)::timestamp - interval '1 second', cast('1 ' || :interval as interval)) t
),
edges as (
  select array_agg(t at time zone :timezone order by t) || ((max(t) + cast('1 ' || :interval as interval)) at time zone :timezone) as starts from series
),
bounds as (
  select cast(:first_day as date)::timestamp at time zone :timezone as starts,
         (cast(:last_day as date) + 1)::timestamp at time zone :timezone as ends
),
orders_by_bucket as (
  select ${bucketOf("at")} as bucket, ${sumsOf(ORDER_MEASURES)} from (${SOURCES[source].orders}) order_facts group by 1
),
checkouts_by_bucket as (
  select ${bucketOf("at")} as bucket, ${sumsOf(CHECKOUT_MEASURES)} from (${SOURCES[source].checkouts}) checkout_facts group by 1
),
subscriptions_in_range as (
  select ${bucketOf("started_at")} as starts, ${bucketOf("coalesce(ended_at, ends_at)")} as ends, ${bucketOf(`least(coalesce(ended_at, ends_at), ${PAUSED_SINCE})`)} as stops,
    ${bucketOf("trial_end")} as trial_ends,
    greatest(${bucketOf("started_at")}, ${bucketOf("trial_end")}) as paying_from, ${bucketOf("canceled_at")} as canceled, customer_cancellation_reason as reason,
    (ended_at is null and ends_at is null) as committed, ${MONTHLY_AMOUNT} as monthly, customer_id
  from subscriptions
  where organization_id = any(:organizations) and started_at is not null and started_at < (select ends from bounds)
    and (coalesce(ended_at, ends_at) is null or coalesce(ended_at, ends_at) >= (select starts from bounds) or canceled_at >= (select starts from bounds))
    and (cast(:customers as text[]) is null or customer_id = any(:customers)) and ${PRODUCTS_FILTER}
),
-- A subscription is active from its start's bucket until it stops (its end, or the pause it is in),
-- and pays into MRR once its trial has ended (before that, it is trialing MRR); a committed one (no
-- end set) counts in the committed figures too. A change before the range counts in its first bucket.
subscription_changes as (
  select starts as bucket, 1 as active, committed::int as committed, 0 as paying, 0 as committed_paying, 0 as trialing, 0 as committed_trialing from subscriptions_in_range
  union all select stops, -1, -committed::int, 0, 0, 0, 0 from subscriptions_in_range where stops is not null
  union all select paying_from, 0, 0, monthly, case when committed then monthly else 0 end, 0, 0 from subscriptions_in_range where stops is null or paying_from < stops
  union all select stops, 0, 0, -monthly, case when committed then -monthly else 0 end, 0, 0 from subscriptions_in_range where paying_from < stops
  union all select starts, 0, 0, 0, 0, monthly, case when committed then monthly else 0 end from subscriptions_in_range where trial_ends > starts
  union all select least(trial_ends, stops), 0, 0, 0, 0, -monthly, case when committed then -monthly else 0 end from subscriptions_in_range where trial_ends > starts
),
subscription_changes_by_bucket as (
  select greatest(bucket, 1) as bucket, sum(active) as active, sum(committed) as committed, sum(paying) as paying,
    sum(committed_paying) as committed_paying, sum(trialing) as trialing, sum(committed_trialing) as committed_trialing
  from subscription_changes group by 1
),
cancellations_by_bucket as (
  select canceled as bucket, count(*) as canceled_subscriptions,
    ${REASON_COLUMNS}
  from subscriptions_in_range where canceled between 1 and (select count(*) from series) group by 1
),
churn_by_bucket as (
  select ends as bucket, count(*) as churned_subscriptions from subscriptions_in_range where ends between 1 and (select count(*) from series) group by 1
),
-- As Polar's ARPU: the MRR at a bucket's end (trials pay nothing yet) per customer holding an active
-- subscription, so ARPU times customers is MRR. Distinct customers do not add up as running sums do,
-- so each bucket counts its own.
revenue_per_customer_by_bucket as (
  select series.bucket, round(coalesce(sum(monthly) filter (where paying_from <= series.bucket), 0) / count(distinct customer_id)) as average_revenue_per_user
  from series join subscriptions_in_range on greatest(starts, 1) <= series.bucket and (stops is null or stops > series.bucket)
  group by 1
)
select series.t at time zone :timezone as timestamp${[...parts].map((part) => `, ${PART_OUTPUTS[part].columns}`).join("")}
from series ${[...parts].map((part) => PART_OUTPUTS[part].joins).join(" ")}
window running as (order by series.t)
order by series.t`;

/** The figures of each bucket of the range, for the organizations given (those the caller may read). */
export async function metricsRows(db: Knex, filters: MetricsFilters, { source, parts }: MetricsQuery): Promise<MetricsRow[]> {
  const result = await db.raw<{ rows: MetricsRow[] }>(METRICS_SQL(source, parts), { ...filters });
  return result.rows;
}
