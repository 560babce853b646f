import { z } from "zod";
import { defineEndpoint, notFound, reachable, type Endpoint } from "@tollgate/kit";
import { customerOf } from "../customer-sessions/service.js";
import { findCustomersOrder, findOrder, shownOrder } from "../orders/service.js";
import { Order } from "../orders/schemas.js";
import type { Parts } from "../parts.js";
import { CreditNote, CustomerOrderInvoice, CustomerOrderReceipt, OrderBillingUpdate, OrderCreditNotes, OrderInvoice, OrderReceipt } from "./schemas.js";
import { creditNoteLink, creditNoteLinks, invoiceLink, issueInvoice, receiptLink, reviseOrderBilling } from "./service.js";
import { findRefund } from "../refunds/service.js";

const id = z.object({ id: z.string() });
/** Polar answers a request it took with a JSON null, which its SDK reads. */
const Accepted = z.null();

/**
 * An order's invoice (made when asked, once, with the billing name and address it then has), its
 * receipt, the billing details the invoice will carry, and a refund's credit note: for the seller under /v1/orders, and for
 * the customer under the portal's orders, as Polar serves both.
 */
export function invoiceEndpoints(parts: Pick<Parts, "db" | "units" | "access" | "storage">): Endpoint[] {
  const { db, access } = parts;
  const sellersOrder = async (identity: Parameters<typeof access.organizationIds>[0], scope: "orders:read" | "orders:write", orderId: string) => reachable(access, identity, scope, await findOrder(db, orderId), "Order");
  const customersOrder = async (identity: Parameters<typeof customerOf>[0], orderId: string) => {
    const order = await findCustomersOrder(db, orderId, customerOf(identity).customer_id);
    if (!order) throw notFound("Order");
    return order;
  };
  return [
    defineEndpoint("/v1/orders/:id", { method: "PATCH", params: id, body: OrderBillingUpdate, response: Order, summary: "Update an order's billing details", tag: "orders" }, async ({ params, body, identity }) =>
      shownOrder(db, await reviseOrderBilling(parts, await sellersOrder(identity, "orders:write", params.id), body)),
    ),
    defineEndpoint("/v1/orders/:id/invoice", { method: "POST", status: 202, params: id, response: Accepted, summary: "Generate an order's invoice", tag: "orders" }, async ({ params, identity }) => {
      await issueInvoice(parts, await sellersOrder(identity, "orders:read", params.id));
      return null;
    }),
    defineEndpoint("/v1/orders/:id/invoice", { method: "GET", params: id, response: OrderInvoice, summary: "Get an order's invoice", tag: "orders" }, async ({ params, identity }) =>
      invoiceLink(parts, await sellersOrder(identity, "orders:read", params.id)),
    ),
    defineEndpoint("/v1/orders/:id/receipt", { method: "GET", params: id, response: OrderReceipt, summary: "Get an order's receipt", tag: "orders" }, async ({ params, identity }) =>
      receiptLink(parts, await sellersOrder(identity, "orders:read", params.id)),
    ),
    defineEndpoint("/v1/orders/:id/credit-notes", { method: "GET", params: id, response: OrderCreditNotes, summary: "List an order's credit notes (Tollgate's own)", tag: "orders" }, async ({ params, identity }) =>
      creditNoteLinks(parts, await sellersOrder(identity, "orders:read", params.id)),
    ),
    defineEndpoint(
      "/v1/customer-portal/orders/:id/credit-notes",
      { method: "GET", params: id, response: OrderCreditNotes, summary: "List the credit notes of one of the customer's orders (Tollgate's own)", tag: "customer_portal" },
      async ({ params, identity }) => creditNoteLinks(parts, await customersOrder(identity, params.id)),
    ),
    defineEndpoint(
      "/v1/refunds/:id/credit-note",
      { method: "GET", params: id, response: CreditNote, summary: "Get the credit note of a refund of an invoiced order (Tollgate's own)", tag: "refunds" },
      async ({ params, identity }) => creditNoteLink(parts, await reachable(access, identity, "refunds:read", await findRefund(db, params.id), "Refund")),
    ),
    defineEndpoint("/v1/customer-portal/orders/:id/invoice", { method: "POST", status: 202, params: id, response: Accepted, summary: "Generate the invoice of one of the customer's orders", tag: "customer_portal" }, async ({ params, identity }) => {
      await issueInvoice(parts, await customersOrder(identity, params.id));
      return null;
    }),
    defineEndpoint("/v1/customer-portal/orders/:id/invoice", { method: "GET", params: id, response: CustomerOrderInvoice, summary: "Get the invoice of one of the customer's orders", tag: "customer_portal" }, async ({ params, identity }) =>
      invoiceLink(parts, await customersOrder(identity, params.id)),
    ),
    defineEndpoint("/v1/customer-portal/orders/:id/receipt", { method: "GET", params: id, response: CustomerOrderReceipt, summary: "Get the receipt of one of the customer's orders", tag: "customer_portal" }, async ({ params, identity }) =>
      receiptLink(parts, await customersOrder(identity, params.id)),
    ),
  ];
}
