import { CANCELLATION_REASONS } from "../subscriptions/subscriptions.sql.js";

export type MetricType = "scalar" | "currency" | "currency_sub_cent" | "percentage";

/** The tables a metric is worked out from. */
export type MetricPart = "orders" | "subscriptions" | "checkouts";

/** A period's figures by slug, and a metric's value in it. */
export type Figures = Record<string, number>;

/**
 * How a metric's total over the range is had from its periods: flows add up, stocks and running sums
 * are their last value, and ratios are taken again over the summed parts.
 */
type Total = { of: "sum" } | { of: "last" } | { of: "ratio"; numerator: string; denominator: string };

export interface Metric {
  slug: string;
  display_name: string;
  type: MetricType;
  total: Total;
  part: MetricPart;
  /** For a metric worked out from others in the same period; the rest come from SQL. */
  derive?: (period: Figures) => number;
  /** Other tables a derived metric's figures come from. */
  alsoFrom?: MetricPart[];
}

const SUM: Total = { of: "sum" };
const LAST: Total = { of: "last" };
const ratio = (numerator: string, denominator: string): Total => ({ of: "ratio", numerator, denominator });
/** `numerator / denominator` in the period, 0 when there is nothing to divide by. */
const share = (period: Figures, numerator: string, denominator: string) => {
  const whole = period[denominator] ?? 0;
  return whole > 0 ? (period[numerator] ?? 0) / whole : 0;
};
// Polar rounds a period's average order value up to the cent.
const perOrder = (revenue: string) => (period: Figures) => Math.ceil(share(period, revenue, "orders"));

/** A kind of paid order counted, with its revenue and net revenue, as Polar names the three. */
const withRevenue = (slug: string, name: string): Omit<Metric, "part">[] => [
  { slug, display_name: name, type: "scalar", total: SUM },
  { slug: `${slug}_revenue`, display_name: `${name} Revenue`, type: "currency", total: SUM },
  { slug: `${slug}_net_revenue`, display_name: `${name} Net Revenue`, type: "currency", total: SUM },
];

const ofPart = (part: MetricPart, metrics: Omit<Metric, "part">[]): Metric[] => metrics.map((metric) => ({ ...metric, part }));

const canceledFor = (reason: (typeof CANCELLATION_REASONS)[number]): Omit<Metric, "part"> => ({
  slug: `canceled_subscriptions_${reason}`,
  display_name: `Canceled Subscriptions - ${reason.split("_").map((word) => word[0]?.toUpperCase() + word.slice(1)).join(" ")}`,
  type: "scalar",
  total: SUM,
});

/**
 * Polar's metrics that Tollgate's data answers truthfully, with Polar's slugs, names and types. Left
 * out: seats (Tollgate has none), costs and everything built on them (cumulative costs, cost per user,
 * active users by event, gross margin, cashflow, LTV: there is no event ingestion).
 */
export const METRICS: Metric[] = [
  ...ofPart("orders", [
    { slug: "orders", display_name: "Orders", type: "scalar", total: SUM },
    { slug: "revenue", display_name: "Revenue", type: "currency", total: SUM },
    { slug: "net_revenue", display_name: "Net Revenue", type: "currency", total: SUM },
    { slug: "cumulative_revenue", display_name: "Cumulative Revenue", type: "currency", total: LAST },
    { slug: "net_cumulative_revenue", display_name: "Net Cumulative Revenue", type: "currency", total: LAST },
    { slug: "average_order_value", display_name: "Average Order Value", type: "currency", total: ratio("revenue", "orders"), derive: perOrder("revenue") },
    { slug: "net_average_order_value", display_name: "Net Average Order Value", type: "currency", total: ratio("net_revenue", "orders"), derive: perOrder("net_revenue") },
    ...withRevenue("one_time_products", "One-Time Products"),
    ...withRevenue("new_subscriptions", "New Subscriptions"),
    ...withRevenue("renewed_subscriptions", "Renewed Subscriptions"),
  ]),
  ...ofPart("subscriptions", [
    { slug: "active_subscriptions", display_name: "Active Subscriptions", type: "scalar", total: LAST },
    { slug: "committed_subscriptions", display_name: "Committed Subscriptions", type: "scalar", total: LAST },
    { slug: "monthly_recurring_revenue", display_name: "Monthly Recurring Revenue", type: "currency", total: LAST },
    { slug: "committed_monthly_recurring_revenue", display_name: "Committed Monthly Recurring Revenue", type: "currency", total: LAST },
    { slug: "trial_monthly_recurring_revenue", display_name: "Trialing MRR Including Cancelations", type: "currency", total: LAST },
    { slug: "trial_committed_monthly_recurring_revenue", display_name: "Trialing Monthly Recurring Revenue", type: "currency", total: LAST },
    { slug: "annual_recurring_revenue", display_name: "Annual Recurring Revenue", type: "currency", total: LAST, derive: (period) => (period.monthly_recurring_revenue ?? 0) * 12 },
    {
      slug: "committed_annual_recurring_revenue",
      display_name: "Committed Annual Recurring Revenue",
      type: "currency",
      total: LAST,
      derive: (period) => (period.committed_monthly_recurring_revenue ?? 0) * 12,
    },
    { slug: "canceled_subscriptions", display_name: "Canceled Subscriptions", type: "scalar", total: SUM },
    ...CANCELLATION_REASONS.map(canceledFor),
    { slug: "churned_subscriptions", display_name: "Churned Subscriptions", type: "scalar", total: SUM },
    // As Polar: the subscriptions canceled in the period, of those active when it began (active at its end, less the new, plus the churned).
    {
      slug: "churn_rate",
      display_name: "Churn Rate",
      type: "percentage",
      total: LAST,
      alsoFrom: ["orders"],
      derive: (period) => {
        const activeAtStart = (period.active_subscriptions ?? 0) - (period.new_subscriptions ?? 0) + (period.churned_subscriptions ?? 0);
        return activeAtStart > 0 ? (period.canceled_subscriptions ?? 0) / activeAtStart : 0;
      },
    },
    { slug: "average_revenue_per_user", display_name: "Average Revenue Per User", type: "currency", total: LAST },
  ]),
  ...ofPart("checkouts", [
    { slug: "checkouts", display_name: "Checkouts", type: "scalar", total: SUM },
    { slug: "succeeded_checkouts", display_name: "Succeeded Checkouts", type: "scalar", total: SUM },
    {
      slug: "checkouts_conversion",
      display_name: "Checkouts Conversion Rate",
      type: "percentage",
      total: ratio("succeeded_checkouts", "checkouts"),
      derive: (period) => share(period, "succeeded_checkouts", "checkouts"),
    },
  ]),
];

export const METRIC_SLUGS = METRICS.map((metric) => metric.slug);

/** Polar's metrics that Tollgate cannot answer (see above): asked for, they are accepted and left out of the answer. */
export const UNANSWERED_SLUGS = [
  "seats_total",
  "seats_claimed",
  "seats_pending",
  "seat_customers",
  "new_seat_customers",
  "churned_seat_customers",
  "costs",
  "cumulative_costs",
  "cost_per_user",
  "active_user_by_event",
  "ltv",
  "gross_margin",
  "gross_margin_percentage",
  "cashflow",
  "average_seats_per_customer",
  "seat_utilization_rate",
];
