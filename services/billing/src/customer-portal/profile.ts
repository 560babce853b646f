import { z } from "zod";
import { defineEndpoint, notFound, trimmedText, type Endpoint, type Knex } from "@tollgate/kit";
import { addressInput } from "../http/address.js";
import { findCustomer, updateCustomer, type CustomerChanges } from "../customers/customers.sql.js";
import { changeCustomer, type CustomerDesk } from "../customers/service.js";
import { portalCustomerJson } from "./output.js";
import { customerOf } from "./portal.js";
import { CustomerPortalCustomer } from "./schemas.js";

/** What a customer may change about themselves: how their invoices are addressed, not who they are. */
const profileUpdate = z.object({
  billing_name: z.string().trim().max(256).nullish(),
  billing_address: addressInput.nullish(),
  tax_id: trimmedText({ min: 1, max: 64 }).nullish(),
});

/** The customer's own profile in the portal: read it, and correct their billing details. */
export function profileEndpoints(desk: CustomerDesk & { db: Knex }): Endpoint[] {
  const { db } = desk;
  return [
    defineEndpoint("/v1/customer-portal/customers/me", { method: "GET", response: CustomerPortalCustomer, summary: "Get the customer", tag: "customer_portal" }, async ({ identity }) => {
      const customer = await findCustomer(db, customerOf(identity).customer_id);
      if (!customer) throw notFound("Customer");
      return portalCustomerJson(customer);
    }),
    defineEndpoint("/v1/customer-portal/customers/me", { method: "PATCH", body: profileUpdate, response: CustomerPortalCustomer, summary: "Update the customer's billing details", tag: "customer_portal" }, async ({ body, identity }) => {
      const changes: CustomerChanges = {};
      if (body.billing_name !== undefined) changes.billing_name = body.billing_name || null;
      if (body.billing_address !== undefined) changes.billing_address = body.billing_address;
      if (body.tax_id !== undefined) changes.tax_id = body.tax_id;
      const customerId = customerOf(identity).customer_id;
      return portalCustomerJson(await changeCustomer(desk, "customer.updated", (unit) => updateCustomer(unit.db, customerId, changes)));
    }),
  ];
}
