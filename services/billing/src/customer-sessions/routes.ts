import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { CustomerSession, CustomerSessionCreate } from "./schemas.js";
import { openCustomerSession } from "./service.js";
import type { Parts } from "../parts.js";

/** `POST /v1/customer-sessions/`: a seller opens the customer portal for one of their customers. */
export function customerSessionEndpoints(parts: Pick<Parts, "db" | "access" | "config">): Endpoint[] {
  return [
    defineEndpoint("/v1/customer-sessions/", { method: "POST", status: 201, body: CustomerSessionCreate, response: CustomerSession, summary: "Open the customer portal for a customer", tag: "customer-sessions" }, async ({ body, identity }) =>
      openCustomerSession(parts, identity, body),
    ),
  ];
}
