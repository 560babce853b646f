import { z } from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { CustomerOrder, CustomerOrderList, CustomerOrderListQuery } from "../schemas.js";
import { customerOrder, customerOrderPage, reviseCustomerOrderBilling } from "../service.js";
import { OrderBillingUpdate } from "../../invoices/schemas.js";
import type { Parts } from "../../parts.js";

const TAG = "customer_portal";

/** The customer's orders, each product with its seller, as Polar's portal shows them, and the billing details their invoices are to carry. */
export function portalOrderEndpoints(parts: Pick<Parts, "db" | "units" | "config">): Endpoint[] {
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
  ];
}
