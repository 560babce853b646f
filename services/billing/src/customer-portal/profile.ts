import { z } from "zod";
import { defineEndpoint, notFound, trimmedText, type Endpoint } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import { addressInput } from "../api/address.js";
import { changeCustomer } from "../customers/changes.js";
import { findCustomer, updateCustomer, type CustomerChanges, type CustomerRow } from "../customers/customers.sql.js";
import { customerOf } from "./portal.js";
import { CustomerPortalCustomer } from "./schemas.js";

/** The customer as the portal shows them to themselves. */
export const portalCustomerJson = (customer: CustomerRow) => ({
  id: customer.id,
  created_at: customer.created_at,
  modified_at: customer.modified_at,
  email: customer.email,
  email_verified: customer.email_verified,
  name: customer.name,
  // Invoices carry the customer's own name until they give another.
  billing_name: customer.billing_name ?? customer.name,
  billing_address: customer.billing_address,
  tax_id: customer.tax_id === null ? null : [customer.tax_id, null],
  // No account connections are offered yet (see benefit grants that wait for one).
  oauth_accounts: {},
  default_payment_method_id: customer.default_payment_method_id,
  type: "individual",
});

/** What a customer may change about themselves: how their invoices are addressed, not who they are. */
const profileUpdate = z.object({
  billing_name: z.string().trim().max(256).nullish(),
  billing_address: addressInput.nullish(),
  tax_id: trimmedText({ min: 1, max: 64 }).nullish(),
});

/** The customer's own profile in the portal: read it, and correct their billing details. */
export function profileEndpoints(billing: Billing): Endpoint[] {
  const { db } = billing;
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
      return portalCustomerJson(await changeCustomer(billing, "customer.updated", (trx) => updateCustomer(trx, customerId, changes)));
    }),
  ];
}
