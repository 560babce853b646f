import { defineMessages, type MessageDescriptor } from "react-intl";
import type { DashboardMetric } from "./metrics-api";

/** Each charted metric's name, as the cards title it and the chooser lists it. */
export const metricNames = defineMessages({
  net_revenue: { id: "seller.dashboard.metric.netRevenue", defaultMessage: "Revenue" },
  revenue: { id: "seller.dashboard.metric.grossRevenue", defaultMessage: "Gross revenue" },
  orders: { id: "seller.dashboard.metric.orders", defaultMessage: "Orders" },
  average_order_value: { id: "seller.dashboard.metric.averageOrderValue", defaultMessage: "Average order value" },
  monthly_recurring_revenue: { id: "seller.dashboard.metric.monthlyRecurringRevenue", defaultMessage: "Monthly recurring revenue" },
  trial_committed_monthly_recurring_revenue: { id: "seller.dashboard.metric.trialMonthlyRecurringRevenue", defaultMessage: "Trialing MRR" },
  active_subscriptions: { id: "seller.dashboard.metric.activeSubscriptions", defaultMessage: "Active subscriptions" },
  new_subscriptions: { id: "seller.dashboard.metric.newSubscriptions", defaultMessage: "New subscriptions" },
  canceled_subscriptions: { id: "seller.dashboard.metric.canceledSubscriptions", defaultMessage: "Canceled subscriptions" },
  checkouts_conversion: { id: "seller.dashboard.metric.checkoutsConversion", defaultMessage: "Checkout conversion" },
  churn_rate: { id: "seller.dashboard.metric.churnRate", defaultMessage: "Churn rate" },
  average_revenue_per_user: { id: "seller.dashboard.metric.averageRevenuePerUser", defaultMessage: "Revenue per customer (ARPU)" },
}) satisfies Record<DashboardMetric, MessageDescriptor>;

/** What each figure counts, in a line under its name, as Polar's cards say it: which revenue, which subscriptions. */
export const metricDescriptions = defineMessages({
  net_revenue: { id: "seller.dashboard.about.netRevenue", defaultMessage: "Paid orders, after refunds and discounts, before tax." },
  revenue: { id: "seller.dashboard.about.grossRevenue", defaultMessage: "Paid orders before refunds, after discounts, before tax." },
  orders: { id: "seller.dashboard.about.orders", defaultMessage: "Paid orders: purchases, new subscriptions and renewals." },
  average_order_value: { id: "seller.dashboard.about.averageOrderValue", defaultMessage: "Gross revenue divided by the number of orders." },
  monthly_recurring_revenue: { id: "seller.dashboard.about.monthlyRecurringRevenue", defaultMessage: "What active subscriptions past their trial bring each month." },
  trial_committed_monthly_recurring_revenue: { id: "seller.dashboard.about.trialMonthlyRecurringRevenue", defaultMessage: "What subscriptions in a trial will bring each month once it ends, unless canceled." },
  active_subscriptions: { id: "seller.dashboard.about.activeSubscriptions", defaultMessage: "Subscriptions running at the end of the period, trials included." },
  new_subscriptions: { id: "seller.dashboard.about.newSubscriptions", defaultMessage: "Subscriptions started in the period." },
  canceled_subscriptions: { id: "seller.dashboard.about.canceledSubscriptions", defaultMessage: "Subscriptions canceled in the period, ending now or at their period's end." },
  checkouts_conversion: { id: "seller.dashboard.about.checkoutsConversion", defaultMessage: "Share of checkouts opened that were paid." },
  churn_rate: { id: "seller.dashboard.about.churnRate", defaultMessage: "Subscriptions canceled, out of those active when the period began." },
  average_revenue_per_user: { id: "seller.dashboard.about.averageRevenuePerUser", defaultMessage: "Monthly recurring revenue divided by the customers with an active subscription." },
}) satisfies Record<DashboardMetric, MessageDescriptor>;
