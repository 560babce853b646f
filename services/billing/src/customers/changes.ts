import { notFound, type Knex } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import { emitBillingEvent } from "../events.js";
import { scheduleStateChange, type CustomerRow } from "./customers.sql.js";
import { customerJson } from "./output.js";

/**
 * Writes a change to a customer with its announcements: the customer event now, their state once
 * the burst settles. Whoever changes a customer (the seller's API or the customer in the portal)
 * goes through here, so neither can forget to tell.
 */
export function changeCustomer(billing: Billing, type: "customer.created" | "customer.updated" | "customer.deleted", write: (trx: Knex.Transaction) => Promise<CustomerRow | undefined>): Promise<CustomerRow> {
  return billing.db.transaction(async (trx) => {
    const customer = await write(trx);
    if (!customer) throw notFound("Customer");
    await emitBillingEvent(billing.outbox, trx, type, customer.organization_id, customerJson(customer));
    if (type !== "customer.deleted") await scheduleStateChange(trx, customer.id, billing.config.CUSTOMER_STATE_DEBOUNCE_MS);
    return customer;
  });
}
