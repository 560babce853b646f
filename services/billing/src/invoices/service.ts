import type { z } from "zod";
import { HttpError, type Knex, type UnitOfWork } from "@tollgate/kit";
import { customersWithIds } from "../customers/customers.sql.js";
import { findFile } from "../files/files.sql.js";
import { storeDocument } from "../files/service.js";
import { itemsOfOrders, type OrderRow } from "../orders/orders.sql.js";
import { PAID_STATUSES } from "../orders/output.js";
import { changeBillingDetails, lockOrder, markInvoiced } from "../orders/service.js";
import type { RefundRow } from "../refunds/refunds.sql.js";
import { succeededRefundsOf } from "../refunds/service.js";
import { findSeller } from "../organizations/organizations.sql.js";
import type { Parts } from "../parts.js";
import { printedCreditNote, printedDocument } from "./document.js";
import { creditNotesOfOrder, findCreditNote, findOrderDocument, keepOrderDocument } from "./invoices.sql.js";
import { renderPdf } from "./pdf.js";
import type { OrderBillingUpdate } from "./schemas.js";

/** How long a link to a document works. */
const URL_LIFETIME_MS = 60 * 60 * 1000;

const notEligible = (order: OrderRow) => new HttpError(409, "OrderNotEligibleForInvoice", `Order ${order.id} is not paid, so it has no invoice or receipt.`);
const missingDetails = () => new HttpError(422, "MissingInvoiceBillingDetails", "Billing name and address are required to generate an invoice for this order.");
const noInvoice = (order: OrderRow) => new HttpError(404, "InvoiceDoesNotExist", `No invoice exists for order ${order.id}.`);
const invoiced = (order: OrderRow) => new HttpError(409, "InvoiceAlreadyExists", `Order ${order.id} already has an invoice: its billing details can no longer change.`);

type DocumentParts = Pick<Parts, "db" | "storage">;

/** Who an order's documents name: its seller and its customer (read even once deleted: their documents stay). */
async function partiesOf(db: Knex, order: OrderRow) {
  const [seller, [customer]] = await Promise.all([findSeller(db, order.organization_id), customersWithIds(db, [order.customer_id])]);
  if (!seller || !customer) throw new Error(`order ${order.id} has no seller or customer to print`);
  return { seller, customer };
}

/** Prints the order's document of `kind` to a PDF and keeps it in the file store. */
async function printAndStore(parts: DocumentParts, kind: "invoice" | "receipt", order: OrderRow) {
  const [items, parties] = await Promise.all([itemsOfOrders(parts.db, [order.id]), partiesOf(parts.db, order)]);
  const printed = printedDocument(kind, { order, items, ...parties, paidAt: order.created_at });
  const file = await storeDocument(parts, order.organization_id, `${printed.title}-${order.invoice_number}.pdf`, await renderPdf(printed));
  return { file, printed };
}

/** A link to the document's file, working for an hour. */
async function linkTo(parts: DocumentParts, fileId: string): Promise<{ url: string }> {
  const file = await findFile(parts.db, fileId);
  if (!file) throw new Error(`document file ${fileId} is gone`);
  return { url: (await parts.storage.downloadUrl(file, new Date(Date.now() + URL_LIFETIME_MS))).url };
}

/**
 * Makes the order's invoice, once: it needs the order paid and its billing name and address (set
 * them with PATCH first). An invoice never changes after: asking again keeps the first.
 */
export async function issueInvoice(parts: DocumentParts & Pick<Parts, "units">, order: OrderRow): Promise<void> {
  if (!PAID_STATUSES.has(order.status)) throw notEligible(order);
  // Under the order's lock: billing details changed meanwhile (PATCH) land before it is printed, or are refused after.
  const issued = await parts.units.run(async (unit) => {
    const locked = await lockOrder(unit.db, order.id);
    if (!locked) throw new Error(`order ${order.id} is gone`);
    if (await findOrderDocument(unit.db, order.id, "invoice")) return false;
    const billed = await withBillingDetails(unit, locked);
    const { file } = await printAndStore({ ...parts, db: unit.db }, "invoice", billed);
    await keepOrderDocument(unit.db, { order_id: order.id, refund_id: null, kind: "invoice", file_id: file.id, order_modified_at: billed.modified_at }, { replace: false });
    await markInvoiced(unit, billed, new Date());
    return true;
  });
  // Refunds made before the invoice correct it too.
  if (issued) for (const refund of await succeededRefundsOf(parts.db, order.id)) await issueCreditNote(parts, refund);
}

/**
 * The credit note of a refund that went through on an invoiced order, made once. An order without an
 * invoice gets none: its receipt shows the refund.
 */
export async function issueCreditNote(parts: DocumentParts, refund: RefundRow): Promise<void> {
  const { db } = parts;
  if (refund.status !== "succeeded" || (await findCreditNote(db, refund.id))) return;
  // Locked: two refunds of one order settled at once number their credit notes one after the other.
  const order = await lockOrder(db, refund.order_id);
  if (!order || !(await findOrderDocument(db, order.id, "invoice"))) return;
  const printed = printedCreditNote({ order, ...(await partiesOf(db, order)), refund, sequence: (await creditNotesOfOrder(db, order.id)).length + 1 });
  const file = await storeDocument(parts, order.organization_id, `${printed.title}-${printed.facts[0]?.[1] ?? order.invoice_number}.pdf`, await renderPdf(printed));
  await keepOrderDocument(db, { order_id: order.id, refund_id: refund.id, kind: "credit_note", file_id: file.id, order_modified_at: order.modified_at }, { replace: false });
}

/** An order's credit notes, numbered as printed (`…-CN1`, `…-CN2`), each with its refund and a link. */
export async function creditNoteLinks(parts: DocumentParts, order: OrderRow): Promise<{ refund_id: string; number: string; created_at: Date; url: string }[]> {
  const notes = await creditNotesOfOrder(parts.db, order.id);
  return Promise.all(notes.map(async (note, index) => ({ refund_id: note.refund_id ?? "", number: `${order.invoice_number}-CN${index + 1}`, created_at: note.created_at, url: (await linkTo(parts, note.file_id)).url })));
}

/** A link to a refund's credit note. */
export async function creditNoteLink(parts: DocumentParts, refund: RefundRow): Promise<{ url: string }> {
  const note = await findCreditNote(parts.db, refund.id);
  if (!note) throw new HttpError(404, "CreditNoteDoesNotExist", `Refund ${refund.id} has no credit note: only refunds of invoiced orders do.`);
  return linkTo(parts, note.file_id);
}

/**
 * The order with the billing name and address its invoice carries: its own, else those the customer
 * has saved since (in the portal, say), written onto the order first; neither, and there is no invoice.
 */
async function withBillingDetails(unit: UnitOfWork, order: OrderRow): Promise<OrderRow> {
  if (order.billing_name && order.billing_address) return order;
  const [customer] = await customersWithIds(unit.db, [order.customer_id]);
  // A checkout asks only for a country: an address with a street the customer saved later is the fuller one.
  const savedAddress = customer?.billing_address?.line1 ? customer.billing_address : null;
  const billingName = order.billing_name ?? customer?.billing_name ?? null;
  const billingAddress = (order.billing_address?.line1 ? order.billing_address : null) ?? savedAddress ?? order.billing_address;
  if (!billingName || !billingAddress) throw missingDetails();
  return changeBillingDetails(unit, order, { billing_name: billingName, billing_address: billingAddress });
}

export async function invoiceLink(parts: DocumentParts, order: OrderRow): Promise<{ url: string }> {
  const invoice = await findOrderDocument(parts.db, order.id, "invoice");
  if (!invoice) throw noInvoice(order);
  return linkTo(parts, invoice.file_id);
}

/** The order's receipt: printed when first asked for, and again once the order changed (a refund shows on it). */
export async function receiptLink(parts: DocumentParts, order: OrderRow): Promise<{ url: string }> {
  if (!PAID_STATUSES.has(order.status)) throw notEligible(order);
  const kept = await findOrderDocument(parts.db, order.id, "receipt");
  const current = kept && (kept.order_modified_at?.getTime() ?? 0) >= (order.modified_at?.getTime() ?? 0);
  if (kept && current) return linkTo(parts, kept.file_id);
  const { file } = await printAndStore(parts, "receipt", order);
  await keepOrderDocument(parts.db, { order_id: order.id, refund_id: null, kind: "receipt", file_id: file.id, order_modified_at: order.modified_at }, { replace: true });
  return linkTo(parts, file.id);
}

/** Corrects the name and address an order's invoice will carry, until the invoice is made (the order locked meanwhile). */
export function reviseOrderBilling(parts: Pick<Parts, "units">, order: OrderRow, body: z.output<typeof OrderBillingUpdate>): Promise<OrderRow> {
  // Only the fields given change: a null clears one.
  const changes = {
    ...(body.billing_name !== undefined ? { billing_name: body.billing_name } : {}),
    ...(body.billing_address !== undefined ? { billing_address: body.billing_address } : {}),
  };
  return parts.units.run(async (unit) => {
    const locked = await lockOrder(unit.db, order.id);
    if (!locked) throw new Error(`order ${order.id} is gone`);
    if (await findOrderDocument(unit.db, order.id, "invoice")) throw invoiced(order);
    return changeBillingDetails(unit, locked, changes);
  });
}
