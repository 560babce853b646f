import { invalidField, isUniqueViolation, notFound, randomId, type Knex, type OrganizationAccess, type Scope, type UnitOfWork } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import type { z } from "zod";
import { endCustomerSessions } from "../customer-sessions/service.js";
import { checkedTaxId } from "../taxes/tax-ids.js";
import { announceCustomerEvent } from "./announce.js";
import { findCustomerByExternalId, insertCustomer, updateCustomer, type CustomerChanges, type CustomerRow } from "./customers.sql.js";
import { customerJson } from "./output.js";
import { addOwner, followCustomerEmail, removeMembersOfCustomer, type MemberRow, type OwnerInput } from "../members/service.js";
import type { CustomerCreateBody, CustomerUpdateBody, CustomerUpdateByExternalIdBody } from "./schemas.js";
import type { Parts } from "../parts.js";

// The reads the routes make, as the store has them: a customer by id or external id, a page of them.
export { findCustomer, findCustomerByExternalId, pageOfCustomers, type CustomerRow } from "./customers.sql.js";

/**
 * The customer's state (`/v1/customers/{id}/state`), served with the customer but made by the read model above
 * the customers (customer-state/), which the composition root hands in.
 */
export interface CustomerStateView {
  response: z.ZodType;
  of(customer: CustomerRow): Promise<unknown>;
}


/**
 * Writes a change to a customer with its announcement: the customer event now, their state (which the
 * event schedules) once the burst settles; an individual's owner keeps the customer's e-mail. Whoever
 * changes a customer (the seller's API or the customer in the portal) goes through here, so neither can forget.
 */
export function changeCustomer(parts: Pick<Parts, "units">, type: "customer.created" | "customer.updated" | "customer.deleted", write: (unit: UnitOfWork) => Promise<CustomerRow | undefined>): Promise<CustomerRow> {
  return parts.units.run(async (unit) => {
    const customer = await write(unit);
    if (!customer) throw notFound("Customer");
    announceCustomerEvent(unit, type, customer.organization_id, customerJson(customer));
    if (type === "customer.updated") await followCustomerEmail(unit, customer);
    return customer;
  });
}

/**
 * Tells of a customer just made, with the owner member every customer is made with (Polar's `owner`,
 * else the customer's own e-mail and name): whoever makes a customer (the seller's API, a checkout)
 * calls this in the unit that made them, so none is left without an owner or unannounced.
 */
export async function welcomeCustomer(unit: UnitOfWork, customer: CustomerRow, owner?: OwnerInput | null): Promise<MemberRow> {
  announceCustomerEvent(unit, "customer.created", customer.organization_id, customerJson(customer));
  return addOwner(unit, customer, owner);
}

/** Which of a request's fields change what, leaving out the ones not sent; a tax number read for the billing country the customer will have. */
function changesOf(body: z.output<typeof CustomerUpdateByExternalIdBody>, existing?: CustomerRow): CustomerChanges {
  const changes: CustomerChanges = {};
  if (body.email) changes.email = body.email;
  if (body.name !== undefined) changes.name = body.name;
  if (body.billing_address !== undefined) changes.billing_address = body.billing_address;
  if (body.tax_id !== undefined) changes.tax_id = checkedTaxId(body.tax_id, (body.billing_address === undefined ? existing?.billing_address : body.billing_address)?.country, ["tax_id"]);
  if (body.locale !== undefined) changes.locale = body.locale;
  if (body.metadata) changes.metadata = body.metadata;
  return changes;
}

/** Which unique value a unique violation was about, told as Polar tells it. */
function conflictOf(error: unknown, customer: { email?: string; external_id?: string | null }): never {
  if (isUniqueViolation(error)) {
    const constraint = (error as { constraint?: string }).constraint;
    if (constraint === "customers_external_id") throw invalidField(["external_id"], "A customer with this external ID already exists.", customer.external_id);
    throw invalidField(["email"], "A customer with this email address already exists.", customer.email);
  }
  throw error;
}

/** A seller's new customer; its e-mail and external id are the seller's to give once. */
export async function createCustomer(parts: Pick<Parts, "units">, organizationId: string, body: z.output<typeof CustomerCreateBody>): Promise<CustomerRow> {
  try {
    return await parts.units.run(async (unit) => {
      const customer = await insertCustomer(unit.db, { id: randomId(32), organization_id: organizationId, ...changesOf(body), type: body.type, email: body.email, external_id: body.external_id ?? null });
      await welcomeCustomer(unit, customer, body.owner);
      return customer;
    });
  } catch (error) {
    conflictOf(error, body);
  }
}

/** A seller's change to a customer. */
export async function reviseCustomer(parts: Pick<Parts, "units">, existing: CustomerRow, body: z.output<typeof CustomerUpdateBody>): Promise<CustomerRow> {
  const changes = changesOf(body, existing);
  if (body.external_id !== undefined && body.external_id !== existing.external_id) {
    // Set once, while none is set: systems outside rely on it never moving.
    if (existing.external_id !== null) throw invalidField(["external_id"], "Customer external ID cannot be updated.", body.external_id);
    changes.external_id = body.external_id;
  }
  if (body.type && body.type !== existing.type) {
    // A team has members and seats an individual cannot hold: the change goes one way only.
    if (existing.type === "team") throw invalidField(["type"], "Customer type cannot be downgraded from 'team' to 'individual'.", body.type);
    changes.type = body.type;
  }
  try {
    return await changeCustomer(parts, "customer.updated", (unit) => updateCustomer(unit.db, existing.id, changes));
  } catch (error) {
    conflictOf(error, { ...existing, ...changes });
  }
}

/** Deletes a customer, ending their portal sessions; anonymized, they also lose what identifies them. */
export async function removeCustomer(parts: Pick<Parts, "units">, existing: CustomerRow, anonymize: boolean): Promise<void> {
  await changeCustomer(parts, "customer.deleted", async (unit) => {
    await endCustomerSessions(unit, existing.id);
    await removeMembersOfCustomer(unit, existing.id);
    return updateCustomer(unit.db, existing.id, {
      deleted_at: new Date(),
      // Anonymized, the customer keeps their id (orders refer to it) and loses what identifies them.
      ...(anonymize && { email: `${existing.id}@anonymized.invalid`, name: null, billing_name: null, billing_address: null, tax_id: null, external_id: null }),
    });
  });
}

/** The customer the caller may reach (with `scope`) by the seller's external id for them; 404 as Polar answers otherwise. */
export async function reachableByExternalId(db: Knex, access: OrganizationAccess, identity: IdentityClaims, scope: Scope, externalId: string): Promise<CustomerRow> {
  const customer = await findCustomerByExternalId(db, await access.organizationIds(identity, scope), externalId);
  if (!customer) throw notFound("Customer");
  return customer;
}
