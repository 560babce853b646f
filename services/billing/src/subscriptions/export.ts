import type { CsvValue, Knex } from "@tollgate/kit";
import { isoInTimeZone } from "../calendar/zoned.js";
import { EXPORT_BATCH, inBatches } from "../db/batches.js";
import { exportAmount } from "../http/exports.js";
import { discountOfCurrentPeriod } from "../discounts/rules.js";
import { subscriptionsToExport, type ExportedSubscriptionRow, type SubscriptionExportFilter } from "./subscriptions.sql.js";

/** Polar's subscription export: each column it offers, under the header it gives it. */
export const SUBSCRIPTION_EXPORT_HEADERS = {
  email: "Email",
  started_at: "Started At",
  product: "Product",
  amount: "Amount",
  currency: "Currency",
  status: "Status",
  recurring_interval: "Billing Interval",
  customer_name: "Customer Name",
  billing_name: "Billing Name",
  billing_country: "Billing Country",
  net_amount: "Net Amount",
  discount: "Discount",
  seats: "Seats",
  current_period_start: "Current Period Start",
  current_period_end: "Current Period End",
  cancel_at_period_end: "Cancels At Period End",
  canceled_at: "Canceled At",
  ends_at: "Ends At",
  ended_at: "Ended At",
  cancellation_reason: "Cancellation Reason",
  trial_start: "Trial Start",
  trial_end: "Trial End",
} as const;
export type SubscriptionExportColumn = keyof typeof SUBSCRIPTION_EXPORT_HEADERS;
export const SUBSCRIPTION_EXPORT_COLUMNS = Object.keys(SUBSCRIPTION_EXPORT_HEADERS) as SubscriptionExportColumn[];

/** The columns an export without `columns` has, as Polar's. */
export const SUBSCRIPTION_EXPORT_DEFAULT_COLUMNS: SubscriptionExportColumn[] = ["email", "started_at", "product", "amount", "currency", "status", "recurring_interval"];


/** "month", or "3 months" for every third month. */
const intervalOf = (subscription: ExportedSubscriptionRow) =>
  subscription.recurring_interval_count === 1 ? subscription.recurring_interval : `${subscription.recurring_interval_count} ${subscription.recurring_interval}s`;

/** One subscription's cells, in the columns asked for, its dates in `timeZone`. */
export function subscriptionExportRow(subscription: ExportedSubscriptionRow, columns: readonly SubscriptionExportColumn[], timeZone: string): CsvValue[] {
  const at = (moment: Date | null) => (moment ? isoInTimeZone(moment, timeZone) : null);
  const discounted = discountOfCurrentPeriod(subscription, subscription.discount, subscription.current_period_start);
  const cells: Record<SubscriptionExportColumn, CsvValue> = {
    email: subscription.email,
    started_at: at(subscription.started_at),
    product: subscription.product_name,
    amount: exportAmount(subscription.amount),
    currency: subscription.currency,
    status: subscription.status,
    recurring_interval: intervalOf(subscription),
    customer_name: subscription.customer_name,
    billing_name: subscription.billing_name,
    billing_country: subscription.billing_address?.country ?? null,
    net_amount: exportAmount(subscription.amount - discounted),
    discount: subscription.discount ? (subscription.discount.code ?? subscription.discount.name) : null,
    seats: subscription.seats,
    current_period_start: at(subscription.current_period_start),
    current_period_end: at(subscription.current_period_end),
    cancel_at_period_end: subscription.cancel_at_period_end ? "true" : "false",
    canceled_at: at(subscription.canceled_at),
    ends_at: at(subscription.ends_at),
    ended_at: at(subscription.ended_at),
    cancellation_reason: subscription.customer_cancellation_reason,
    trial_start: at(subscription.trial_start),
    trial_end: at(subscription.trial_end),
  };
  return columns.map((column) => cells[column]);
}

/** The export's rows, a batch (`batchSize` subscriptions) at a time, oldest first. */
export async function* subscriptionExportRows(db: Knex, filter: SubscriptionExportFilter, columns: readonly SubscriptionExportColumn[], timeZone: string, batchSize = EXPORT_BATCH): AsyncGenerator<CsvValue[][]> {
  for await (const batch of inBatches((after, limit) => subscriptionsToExport(db, filter, after, limit), batchSize)) yield batch.map((subscription) => subscriptionExportRow(subscription, columns, timeZone));
}
