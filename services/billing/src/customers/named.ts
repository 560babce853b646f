import type { Knex } from "@tollgate/kit";
import { findCustomer, findCustomerByExternalId } from "./customers.sql.js";

/** How a request names a customer: by Tollgate's id, or by the seller's own id for them. */
export type CustomerNamed = { customer_id: string } | { external_customer_id: string };

/**
 * The customer a request names, among the customers of `organizationIds` (undefined when none is),
 * with the field that named it and its value, for the request's refusal.
 */
export async function namedCustomer(db: Knex, organizationIds: string[], named: CustomerNamed) {
  if ("customer_id" in named) {
    const customer = await findCustomer(db, named.customer_id);
    return { customer: customer && organizationIds.includes(customer.organization_id) ? customer : undefined, field: "customer_id" as const, input: named.customer_id };
  }
  return { customer: await findCustomerByExternalId(db, organizationIds, named.external_customer_id), field: "external_customer_id" as const, input: named.external_customer_id };
}
