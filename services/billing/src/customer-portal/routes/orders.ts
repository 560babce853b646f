import { z } from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { CustomerOrder, CustomerOrderConfirmPayment, CustomerOrderList, CustomerOrderListQuery, CustomerOrderPaymentConfirmation, CustomerOrderPaymentStatus } from "../schemas.js";
import { customerOrder, customerOrderPage, orderPaymentStatus, payOrderAwaitingPayment, reviseCustomerOrderBilling } from "../service.js";
import { OrderBillingUpdate } from "../../invoices/schemas.js";
import type { Parts } from "../../parts.js";

const TAG = "customer_portal";

/**
 * The customer's orders, each product with its seller, as Polar's portal shows them, the billing
 * details their invoices are to carry, and paying one whose charge was declined.
 */
export function portalOrderEndpoints(parts: Pick<Parts, "db" | "units" | "config" | "processor"> & { renewNow: (subscriptionId: string) => Promise<void> }): Endpoint[] {
  return [
    defineEndpoint("/v1/customer-portal/orders/", { method: "GET", query: CustomerOrderListQuery, response: CustomerOrderList, summary: "List the customer's orders", tag: TAG }, async ({ query, identity }) =>
      customerOrderPage(parts, identity, query),
    ),
    defineEndpoint("/v1/customer-portal/orders/:id", { method: "GET", params: z.object({ id: z.string() }), response: CustomerOrder, summary: "Get one of the customer's orders", tag: TAG }, async ({ params, identity }) =>
      customerOrder(parts, identity, params.id),
    ),
    defineEndpoint(
      "/v1/customer-portal/orders/:id",
      { method: "PATCH", params: z.object({ id: z.string() }), body: OrderBillingUpdate, response: CustomerOrder, summary: "Update the billing details of one of the customer's orders", tag: TAG },
      async ({ params, body, identity }) => reviseCustomerOrderBilling(parts, identity, params.id, body),
    ),
    defineEndpoint(
      "/v1/customer-portal/orders/:id/payment-status",
      { method: "GET", params: z.object({ id: z.string() }), response: CustomerOrderPaymentStatus, summary: "Get what became of the latest charge of one of the customer's orders", tag: TAG },
      async ({ params, identity }) => orderPaymentStatus(parts.db, identity, params.id),
    ),
    defineEndpoint(
      "/v1/customer-portal/orders/:id/confirm-payment",
      { method: "POST", params: z.object({ id: z.string() }), body: CustomerOrderConfirmPayment, response: CustomerOrderPaymentConfirmation, summary: "Pay one of the customer's orders awaiting payment", tag: TAG },
      async ({ params, body, identity }) => payOrderAwaitingPayment(parts, identity, params.id, body),
    ),
  ];
}
