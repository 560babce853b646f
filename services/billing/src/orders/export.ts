import type { CsvValue, Knex } from "@tollgate/kit";
import { isoInTimeZone } from "../calendar/zoned.js";
import { EXPORT_BATCH, inBatches } from "../db/batches.js";
import { exportAmount } from "../http/exports.js";
import { ordersToExport, type ExportedOrderRow, type OrderExportFilter } from "./orders.sql.js";

/** Polar's order export: each column it offers, under the header it gives it. */
export const ORDER_EXPORT_HEADERS = {
  email: "Email",
  created_at: "Created At",
  product: "Product",
  net_amount: "Net Amount",
  currency: "Currency",
  status: "Status",
  invoice_number: "Invoice number",
  customer_name: "Customer Name",
  billing_name: "Billing Name",
  billing_country: "Billing Country",
  subtotal_amount: "Subtotal",
  discount_amount: "Discount",
  tax_amount: "Tax",
  total_amount: "Total",
  refunded_amount: "Refunded Amount",
  billing_reason: "Billing Reason",
} as const;
export type OrderExportColumn = keyof typeof ORDER_EXPORT_HEADERS;
export const ORDER_EXPORT_COLUMNS = Object.keys(ORDER_EXPORT_HEADERS) as OrderExportColumn[];

/** The columns an export without `columns` has, as Polar's. */
export const ORDER_EXPORT_DEFAULT_COLUMNS: OrderExportColumn[] = ["email", "created_at", "product", "net_amount", "currency", "status", "invoice_number"];


/** One order's cells, in the columns asked for, its dates in `timeZone`. */
export function orderExportRow(order: ExportedOrderRow, columns: readonly OrderExportColumn[], timeZone: string): CsvValue[] {
  const net = order.subtotal_amount - order.discount_amount;
  const cells: Record<OrderExportColumn, CsvValue> = {
    email: order.email,
    created_at: isoInTimeZone(order.created_at, timeZone),
    product: order.product_name,
    net_amount: exportAmount(net),
    currency: order.currency,
    status: order.status,
    invoice_number: order.invoice_number,
    customer_name: order.customer_name,
    billing_name: order.billing_name,
    billing_country: order.billing_address?.country ?? null,
    subtotal_amount: exportAmount(order.subtotal_amount),
    discount_amount: exportAmount(order.discount_amount),
    tax_amount: exportAmount(order.tax_amount),
    total_amount: exportAmount(net + order.tax_amount),
    refunded_amount: exportAmount(order.refunded_amount),
    billing_reason: order.billing_reason,
  };
  return columns.map((column) => cells[column]);
}


/** The export's rows, a batch (`batchSize` orders) at a time, oldest order first. */
export async function* orderExportRows(db: Knex, filter: OrderExportFilter, columns: readonly OrderExportColumn[], timeZone: string, batchSize = EXPORT_BATCH): AsyncGenerator<CsvValue[][]> {
  for await (const batch of inBatches((after, limit) => ordersToExport(db, filter, after, limit), batchSize)) yield batch.map((order) => orderExportRow(order, columns, timeZone));
}
