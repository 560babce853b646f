import type { Knex } from "@tollgate/kit";
import { CANCELLATION_REASONS } from "../subscriptions/subscriptions.sql.js";

export type TimeInterval = "hour" | "day" | "week" | "month" | "year";

export interface MetricsQuery {
  organizationIds: string[];
  timezone: string;
  interval: TimeInterval;
  /** The first and last days of the range, in the seller's timezone (YYYY-MM-DD). */
  firstDay: string;
  lastDay: string;
  productIds: string[] | null;
  billingTypes: ("one_time" | "recurring")[] | null;
  customerIds: string[] | null;
  /**
   * Whether the hourly rollups can answer: not for a customer (they are not kept per customer), nor in
   * a timezone whose midnight falls within an hour.
   */
  fromRollups: boolean;
}

/** One bucket's figures as SQL sums them (bigint sums come back as text from pg). */
export type MetricsRow = { timestamp: Date } & Record<string, string | number | Date>;

// The products a query may count: those named, of the billing types named.
// crosses into products: a product's billing type is whether it recurs, which only products know
const PRODUCTS_FILTER = `(cast(:products as text[]) is null or product_id = any(:products))
  and (cast(:billing_types as text[]) is null or product_id in (
    select id from products where organization_id = any(:organizations)
      and (case when recurring_interval is null then 'one_time' else 'recurring' end) = any(:billing_types)))`;

// Paid orders, per moment: from the hourly rollup, or from the orders themselves.
const ORDERS_BY_HOUR = `select hour as at, billing_reason, orders, revenue, net_revenue from order_hours
  where organization_id = any(:organizations) and hour >= (select starts from bounds) and hour < (select ends from bounds) and ${PRODUCTS_FILTER}`;
// crosses into orders: a customer's figures, and a half-hour timezone's, are summed from their orders (the rollup keeps neither)
const ORDERS_ONE_BY_ONE = `select created_at as at, billing_reason, 1 as orders, subtotal_amount - discount_amount as revenue,
    subtotal_amount - discount_amount - (refunded_amount - refunded_tax_amount) as net_revenue
  from orders where organization_id = any(:organizations) and status in ('paid', 'refunded', 'partially_refunded')
    and created_at >= (select starts from bounds) and created_at < (select ends from bounds)
    and (cast(:customers as text[]) is null or customer_id = any(:customers)) and ${PRODUCTS_FILTER}`;

// Checkouts created, and how many of them succeeded, per moment.
const CHECKOUTS_BY_HOUR = `select hour as at, checkouts, succeeded_checkouts from checkout_hours
  where organization_id = any(:organizations) and hour >= (select starts from bounds) and hour < (select ends from bounds) and ${PRODUCTS_FILTER}`;
// crosses into checkouts: as for orders, a customer's checkouts are counted one by one
const CHECKOUTS_ONE_BY_ONE = `select created_at as at, 1 as checkouts, (status = 'succeeded')::int as succeeded_checkouts
  from checkouts where organization_id = any(:organizations) and created_at >= (select starts from bounds) and created_at < (select ends from bounds)
    and (cast(:customers as text[]) is null or customer_id = any(:customers)) and ${PRODUCTS_FILTER}`;

const bucketOf = (column: string) => `date_trunc(:interval, ${column} at time zone :timezone)`;
const REASON_COLUMNS = CANCELLATION_REASONS.map((reason) => `count(*) filter (where reason = '${reason}') as canceled_subscriptions_${reason}`).join(",\n    ");
const MONTHLY_AMOUNT = `round(case recurring_interval
    when 'year' then amount / (12.0 * recurring_interval_count)
    when 'month' then amount / (1.0 * recurring_interval_count)
    when 'week' then amount * 52 / (12.0 * recurring_interval_count)
    else amount * 365 / (12.0 * recurring_interval_count) end)`;

/**
 * Every figure per bucket of the range, in one statement. Buckets are `generate_series` over the
 * seller's local time; flows (orders, checkouts, cancellations) are summed into their bucket, and
 * stocks (active subscriptions, MRR) are running sums of what starts and ends in each bucket, so a
 * year of days costs one pass over the seller's subscriptions, not one per day.
 */
// crosses into subscriptions: a reporting read of the seller's subscriptions (active, MRR, cancellations), never a write
const METRICS_SQL = (fromRollups: boolean) => `
with bounds as (
  select cast(:first_day as date)::timestamp at time zone :timezone as starts,
         (cast(:last_day as date) + 1)::timestamp at time zone :timezone as ends
),
series as (
  select generate_series(date_trunc(:interval, cast(:first_day as date)::timestamp), (cast(:last_day as date) + 1)::timestamp - interval '1 second', cast('1 ' || :interval as interval)) as t
),
order_facts as (${fromRollups ? ORDERS_BY_HOUR : ORDERS_ONE_BY_ONE}),
orders_by_moment as (
  select at,
    sum(orders) as orders, sum(revenue) as revenue, sum(net_revenue) as net_revenue,
    sum(orders) filter (where billing_reason = 'purchase') as one_time_products,
    sum(revenue) filter (where billing_reason = 'purchase') as one_time_products_revenue,
    sum(net_revenue) filter (where billing_reason = 'purchase') as one_time_products_net_revenue,
    sum(orders) filter (where billing_reason = 'subscription_create') as new_subscriptions,
    sum(revenue) filter (where billing_reason = 'subscription_create') as new_subscriptions_revenue,
    sum(net_revenue) filter (where billing_reason = 'subscription_create') as new_subscriptions_net_revenue,
    sum(orders) filter (where billing_reason = 'subscription_cycle') as renewed_subscriptions,
    sum(revenue) filter (where billing_reason = 'subscription_cycle') as renewed_subscriptions_revenue,
    sum(net_revenue) filter (where billing_reason = 'subscription_cycle') as renewed_subscriptions_net_revenue
  from order_facts group by at
),
orders_by_bucket as (
  select ${bucketOf("at")} as t,
    sum(orders) as orders, sum(revenue) as revenue, sum(net_revenue) as net_revenue,
    sum(one_time_products) as one_time_products, sum(one_time_products_revenue) as one_time_products_revenue, sum(one_time_products_net_revenue) as one_time_products_net_revenue,
    sum(new_subscriptions) as new_subscriptions, sum(new_subscriptions_revenue) as new_subscriptions_revenue, sum(new_subscriptions_net_revenue) as new_subscriptions_net_revenue,
    sum(renewed_subscriptions) as renewed_subscriptions, sum(renewed_subscriptions_revenue) as renewed_subscriptions_revenue, sum(renewed_subscriptions_net_revenue) as renewed_subscriptions_net_revenue
  from orders_by_moment group by 1
),
checkout_facts as (${fromRollups ? CHECKOUTS_BY_HOUR : CHECKOUTS_ONE_BY_ONE}),
checkouts_by_bucket as (
  select ${bucketOf("at")} as t, sum(checkouts) as checkouts, sum(succeeded_checkouts) as succeeded_checkouts
  from (select at, sum(checkouts) as checkouts, sum(succeeded_checkouts) as succeeded_checkouts from checkout_facts group by at) by_moment group by 1
),
subscriptions_in_range as (
  select ${bucketOf("started_at")} as starts, ${bucketOf("coalesce(ended_at, ends_at)")} as ends,
    ${bucketOf("trial_end")} as trial_ends, greatest(${bucketOf("started_at")}, ${bucketOf("trial_end")}) as paying_from, ${bucketOf("canceled_at")} as canceled,
    coalesce(ended_at, ends_at) as ended_or_ends_at, canceled_at, customer_cancellation_reason as reason,
    (ended_at is null and ends_at is null) as committed, ${MONTHLY_AMOUNT} as monthly
  from subscriptions
  where organization_id = any(:organizations) and started_at is not null and started_at < (select ends from bounds)
    and (coalesce(ended_at, ends_at) is null or coalesce(ended_at, ends_at) >= (select starts from bounds) or canceled_at >= (select starts from bounds))
    and (cast(:customers as text[]) is null or customer_id = any(:customers)) and ${PRODUCTS_FILTER}
),
-- A subscription is active from its start's bucket until its end's, and pays into MRR once its trial
-- has ended; a committed one (no end set) counts in the committed figures too.
subscription_changes as (
  select starts as t, 1 as active, committed::int as committed, 0 as paying, 0 as committed_paying, 0 as trialing, 0 as committed_trialing from subscriptions_in_range
  union all select ends, -1, 0, 0, 0, 0, 0 from subscriptions_in_range where ends is not null
  union all select paying_from, 0, 0, monthly, case when committed then monthly else 0 end, 0, 0 from subscriptions_in_range where ends is null or paying_from < ends
  union all select ends, 0, 0, -monthly, 0, 0, 0 from subscriptions_in_range where paying_from < ends
  union all select starts, 0, 0, 0, 0, monthly, case when committed then monthly else 0 end from subscriptions_in_range where trial_ends > starts
  union all select least(trial_ends, ends), 0, 0, 0, 0, -monthly, case when committed then -monthly else 0 end from subscriptions_in_range where trial_ends > starts
),
subscription_changes_by_bucket as (
  select greatest(t, (select min(t) from series)) as t, sum(active) as active, sum(committed) as committed, sum(paying) as paying,
    sum(committed_paying) as committed_paying, sum(trialing) as trialing, sum(committed_trialing) as committed_trialing
  from subscription_changes group by 1
),
cancellations_by_bucket as (
  select canceled as t, count(*) as canceled_subscriptions,
    ${REASON_COLUMNS}
  from subscriptions_in_range where canceled_at >= (select starts from bounds) and canceled_at < (select ends from bounds) group by 1
),
churn_by_bucket as (
  select ends as t, count(*) as churned_subscriptions from subscriptions_in_range
  where ended_or_ends_at >= (select starts from bounds) and ended_or_ends_at < (select ends from bounds) group by 1
)
select series.t at time zone :timezone as timestamp, orders_by_bucket.*, checkouts_by_bucket.*, cancellations_by_bucket.*, churn_by_bucket.*,
  sum(coalesce(orders_by_bucket.revenue, 0)) over running as cumulative_revenue,
  sum(coalesce(orders_by_bucket.net_revenue, 0)) over running as net_cumulative_revenue,
  sum(coalesce(subscription_changes_by_bucket.active, 0)) over running as active_subscriptions,
  sum(coalesce(subscription_changes_by_bucket.committed, 0)) over running as committed_subscriptions,
  sum(coalesce(subscription_changes_by_bucket.paying, 0)) over running as monthly_recurring_revenue,
  sum(coalesce(subscription_changes_by_bucket.committed_paying, 0)) over running as committed_monthly_recurring_revenue,
  sum(coalesce(subscription_changes_by_bucket.trialing, 0)) over running as trial_monthly_recurring_revenue,
  sum(coalesce(subscription_changes_by_bucket.committed_trialing, 0)) over running as trial_committed_monthly_recurring_revenue
from series
  left join orders_by_bucket using (t)
  left join checkouts_by_bucket using (t)
  left join subscription_changes_by_bucket using (t)
  left join cancellations_by_bucket using (t)
  left join churn_by_bucket using (t)
window running as (order by series.t)
order by series.t`;

/** The figures of each bucket of the range, for the organizations given (those the caller may read). */
export async function metricsRows(db: Knex, query: MetricsQuery): Promise<MetricsRow[]> {
  const result = await db.raw<{ rows: MetricsRow[] }>(METRICS_SQL(query.fromRollups), {
    organizations: query.organizationIds,
    timezone: query.timezone,
    interval: query.interval,
    first_day: query.firstDay,
    last_day: query.lastDay,
    products: query.productIds,
    billing_types: query.billingTypes,
    customers: query.customerIds,
  });
  return result.rows;
}
