import { defineMessages, type MessageDescriptor } from "react-intl";
import type { DashboardMetric } from "./metrics-api";

/** Each charted metric's name, as the cards title it and the chooser lists it. */
export const metricNames = defineMessages({
  revenue: { id: "seller.dashboard.metric.revenue", defaultMessage: "Revenue" },
  orders: { id: "seller.dashboard.metric.orders", defaultMessage: "Orders" },
  average_order_value: { id: "seller.dashboard.metric.averageOrderValue", defaultMessage: "Average order value" },
  monthly_recurring_revenue: { id: "seller.dashboard.metric.monthlyRecurringRevenue", defaultMessage: "Monthly recurring revenue" },
  active_subscriptions: { id: "seller.dashboard.metric.activeSubscriptions", defaultMessage: "Active subscriptions" },
  new_subscriptions: { id: "seller.dashboard.metric.newSubscriptions", defaultMessage: "New subscriptions" },
  canceled_subscriptions: { id: "seller.dashboard.metric.canceledSubscriptions", defaultMessage: "Canceled subscriptions" },
  checkouts_conversion: { id: "seller.dashboard.metric.checkoutsConversion", defaultMessage: "Checkout conversion" },
  churn_rate: { id: "seller.dashboard.metric.churnRate", defaultMessage: "Churn rate" },
  average_revenue_per_user: { id: "seller.dashboard.metric.averageRevenuePerUser", defaultMessage: "Revenue per customer (ARPU)" },
}) satisfies Record<DashboardMetric, MessageDescriptor>;
