import type { CustomerRow } from "../customers/customers.sql.js";
import type { Address } from "../db/address.js";
import type { OrderItemRow, OrderRow } from "../orders/orders.sql.js";
import { paidOrderNumber } from "../orders/output.js";
import type { SellerRow } from "../organizations/organizations.sql.js";
import type { RefundRow } from "../refunds/refunds.sql.js";
import { RATE_SCALE } from "../taxes/rates.js";
import { documentLocale, labelsFor, type DocumentLabels, type DocumentLocale } from "./labels.js";

export type DocumentKind = "invoice" | "receipt" | "credit_note";

/** An invoice or receipt as it is printed: every text already in the customer's language. */
export interface PrintedDocument {
  kind: DocumentKind;
  locale: DocumentLocale;
  labels: DocumentLabels;
  title: string;
  /** Label and value pairs under the title: the number, when issued, when paid. */
  facts: [string, string][];
  seller: string[];
  buyer: string[];
  lines: { description: string; tax: string; amount: string }[];
  totals: [string, string][];
  /** Statements under the totals: a reverse charge. */
  notes: string[];
}

/** An address's lines as a letter carries them; the country by its name in the language. */
function addressLines(address: Address | null, locale: DocumentLocale): string[] {
  if (!address) return [];
  const country = address.country ? (new Intl.DisplayNames([locale], { type: "region" }).of(address.country) ?? address.country) : null;
  const cityLine = [address.postal_code, address.city, address.state].filter(Boolean).join(" ");
  return [address.line1, address.line2, cityLine, country].filter((line): line is string => Boolean(line));
}

/** An amount in the currency's smallest unit, as the language writes money. */
function moneyOf(locale: DocumentLocale, currency: string) {
  const format = new Intl.NumberFormat(locale, { style: "currency", currency: currency.toUpperCase() });
  const exponent = format.resolvedOptions().maximumFractionDigits ?? 2;
  return (amount: number) => format.format(amount / 10 ** exponent);
}

interface OrderParts {
  order: OrderRow;
  seller: SellerRow;
  customer: CustomerRow;
}

/**
 * Who sells and who is billed: the seller with their address and tax number, and the order's billing
 * name and address with the buyer's tax number as the order was taxed with it (the customer's now, for
 * an order taxed before Tollgate kept it).
 */
function partiesOf({ order, seller, customer }: OrderParts, locale: DocumentLocale, labels: DocumentLabels) {
  const buyerTaxId = order.customer_tax_id ?? customer.tax_id;
  return {
    seller: [seller.name, ...addressLines(seller.address, locale), ...(seller.email ? [seller.email] : []), ...(seller.website ? [seller.website] : []), ...(seller.tax_id ? [`${labels.vatNumber}: ${seller.tax_id}`] : [])],
    buyer: [order.billing_name ?? customer.name ?? customer.email, ...addressLines(order.billing_address, locale), customer.email, ...(buyerTaxId ? [`${labels.taxId}: ${buyerTaxId}`] : [])],
  };
}

/** The tax total's label: with the rate the order was taxed at, where it was. */
function taxLabel(order: Pick<OrderRow, "tax_rate">, locale: DocumentLocale, labels: DocumentLabels): string {
  if (!order.tax_rate) return labels.tax;
  return `${labels.tax} (${new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 3 }).format(order.tax_rate / RATE_SCALE)})`;
}

const notesOf = (order: Pick<OrderRow, "reverse_charge">, labels: DocumentLabels) => (order.reverse_charge ? [labels.reverseCharge] : []);

const dateIn = (locale: DocumentLocale) => (at: Date) => new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(at);

/**
 * What an order's invoice or receipt says, in the customer's language: the seller and the buyer,
 * each line with its tax, and the totals (the refunded part on a receipt). A pure fold of the rows:
 * the same order always prints the same.
 */
export function printedDocument(kind: "invoice" | "receipt", parts: OrderParts & { items: OrderItemRow[]; paidAt: Date }): PrintedDocument {
  const { order, items, customer, paidAt } = parts;
  const locale = documentLocale(customer.locale);
  const labels = labelsFor(locale);
  const money = moneyOf(locale, order.currency);
  const date = dateIn(locale);
  const total = order.subtotal_amount - order.discount_amount + order.tax_amount;
  return {
    kind,
    locale,
    labels,
    title: kind === "invoice" ? labels.invoice : labels.receipt,
    facts: [
      [labels.number, paidOrderNumber(order)],
      [labels.issued, date(order.created_at)],
      [labels.paid, date(paidAt)],
    ],
    ...partiesOf(parts, locale, labels),
    lines: items.map((item) => ({ description: item.label, tax: money(item.tax_amount), amount: money(item.amount) })),
    totals: [
      [labels.subtotal, money(order.subtotal_amount)],
      ...(order.discount_amount ? [[labels.discount, money(-order.discount_amount)] as [string, string]] : []),
      [taxLabel(order, locale, labels), money(order.tax_amount)],
      [labels.total, money(total)],
      ...(kind === "receipt" && order.refunded_amount ? [[labels.refunded, money(-(order.refunded_amount + order.refunded_tax_amount))] as [string, string]] : []),
    ],
    notes: notesOf(order, labels),
  };
}

/**
 * A credit note: a refund of an invoiced order, as a document of its own that names the invoice it
 * corrects, numbered after it (`…-CN1`, `…-CN2`), with the refunded amount and tax taken off.
 */
export function printedCreditNote(parts: OrderParts & { refund: Pick<RefundRow, "amount" | "tax_amount" | "created_at">; sequence: number }): PrintedDocument {
  const { order, customer, refund, sequence } = parts;
  const number = paidOrderNumber(order);
  const locale = documentLocale(customer.locale);
  const labels = labelsFor(locale);
  const money = moneyOf(locale, order.currency);
  return {
    kind: "credit_note",
    locale,
    labels,
    title: labels.creditNote,
    facts: [
      [labels.number, `${number}-CN${sequence}`],
      [labels.credits, number],
      [labels.issued, dateIn(locale)(refund.created_at)],
    ],
    ...partiesOf(parts, locale, labels),
    lines: [{ description: `${labels.refundOf} ${number}`, tax: money(-refund.tax_amount), amount: money(-refund.amount) }],
    totals: [
      [labels.subtotal, money(-refund.amount)],
      [taxLabel(order, locale, labels), money(-refund.tax_amount)],
      [labels.total, money(-(refund.amount + refund.tax_amount))],
    ],
    notes: notesOf(order, labels),
  };
}
