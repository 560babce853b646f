import { z } from "zod";
import { defineEndpoint, randomId, type Endpoint, invalidField, isUniqueViolation, notFound, pageJson, pageOf, paging, queryFlag, repeated, sorting, reachable } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import type { Billing } from "../billing.js";
import { addressInput } from "../api/address.js";
import { metadataFilters, metadataInput, whereMetadata } from "../api/metadata.js";
import { endCustomerSessions } from "../customer-sessions/sessions.js";
import { changeCustomer } from "./changes.js";
import { customers, findCustomer, findCustomerByExternalId, insertCustomer, updateCustomer, type CustomerChanges, type CustomerRow } from "./customers.sql.js";
import { customerJson } from "./output.js";
import { Customer, CustomerList } from "./schemas.js";
import { customerState } from "./state.js";
import { CustomerState } from "./state-schemas.js";

const email = z.email().transform((value) => value.toLowerCase());
const editable = {
  name: z.string().max(256).nullish(),
  billing_address: addressInput.nullish(),
  tax_id: z.string().min(1).nullish(),
  locale: z.string().nullish(),
  metadata: metadataInput.optional(),
};

const createBody = z.object({
  ...editable,
  email,
  external_id: z.string().min(1).nullish(),
  organization_id: z.string().nullish(),
  type: z.literal("individual").optional(),
});
const updateBody = z.object({ ...editable, email: email.nullish(), external_id: z.string().min(1).nullish(), type: z.literal("individual").nullish() });
const updateByExternalIdBody = z.object({ ...editable, email: email.nullish() });

const SORTABLE = { created_at: "created_at", email: "email", name: "name" } as const;
const TAG = "customers";

/** Which of a request's fields change what, leaving out the ones not sent. */
function changesOf(body: z.output<typeof updateByExternalIdBody>): CustomerChanges {
  const changes: CustomerChanges = {};
  if (body.email) changes.email = body.email;
  if (body.name !== undefined) changes.name = body.name;
  if (body.billing_address !== undefined) changes.billing_address = body.billing_address;
  if (body.tax_id !== undefined) changes.tax_id = body.tax_id;
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

export function customerEndpoints(billing: Billing): Endpoint[] {
  const { db, access } = billing;
  const byId = async (identity: IdentityClaims, scope: "customers:read" | "customers:write", id: string) => reachable(access, identity, scope, await findCustomer(db, id), "Customer");
  const byExternalId = async (identity: IdentityClaims, scope: "customers:read" | "customers:write", externalId: string) => {
    const customer = await findCustomerByExternalId(db, await access.organizationIds(identity, scope), externalId);
    if (!customer) throw notFound("Customer");
    return customer;
  };

  const update = async (existing: CustomerRow, body: z.output<typeof updateBody>) => {
    const changes = changesOf(body);
    if (body.external_id !== undefined && body.external_id !== existing.external_id) {
      // Set once, while none is set: systems outside rely on it never moving.
      if (existing.external_id !== null) throw invalidField(["external_id"], "Customer external ID cannot be updated.", body.external_id);
      changes.external_id = body.external_id;
    }
    try {
      return customerJson(await changeCustomer(billing, "customer.updated", (trx) => updateCustomer(trx, existing.id, changes)));
    } catch (error) {
      conflictOf(error, { ...existing, ...changes });
    }
  };

  const remove = async (existing: CustomerRow, anonymize: boolean) => {
    await changeCustomer(billing, "customer.deleted", async (trx) => {
      await endCustomerSessions(billing.outbox, trx, existing.id);
      return updateCustomer(trx, existing.id, {
        deleted_at: new Date(),
        // Anonymized, the customer keeps their id (orders refer to it) and loses what identifies them.
        ...(anonymize && { email: `${existing.id}@anonymized.invalid`, name: null, billing_name: null, billing_address: null, tax_id: null, external_id: null }),
      });
    });
  };

  const deleteQuery = z.object({ anonymize: queryFlag().default(false) });

  return [
    defineEndpoint("/v1/customers/", { method: "POST", status: 201, body: createBody, response: Customer, summary: "Create a customer", tag: TAG }, async ({ body, identity }) => {
      const organizationId = await access.organizationFor(identity, "customers:write", body.organization_id);
      try {
        const created = await changeCustomer(billing, "customer.created", (trx) =>
          insertCustomer(trx, { id: randomId(32), organization_id: organizationId, ...changesOf(body), email: body.email, external_id: body.external_id ?? null }),
        );
        return customerJson(created);
      } catch (error) {
        conflictOf(error, body);
      }
    }),

    defineEndpoint(
      "/v1/customers/",
      {
        method: "GET",
        query: z.object({
          ...paging,
          organization_id: repeated(z.string()),
          email: z.string().optional(),
          query: z.string().optional(),
          sorting: sorting(Object.keys(SORTABLE) as (keyof typeof SORTABLE)[], "-created_at"),
        }),
        response: CustomerList,
        summary: "List customers",
        tag: TAG,
      },
      async ({ query, identity, req }) => {
        const found = customers(db).whereIn("organization_id", await access.organizationIds(identity, "customers:read"));
        if (query.organization_id) void found.whereIn("organization_id", query.organization_id);
        if (query.email) void found.where({ email: query.email.toLowerCase() });
        if (query.query) {
          const pattern = `%${query.query}%`;
          void found.where((match) => void match.whereILike("email", pattern).orWhereILike("name", pattern).orWhereILike("external_id", pattern));
        }
        whereMetadata(found, "metadata", metadataFilters(req));
        const { rows, total } = await pageOf<CustomerRow, keyof typeof SORTABLE>(found, { ...query, sort: query.sorting, columns: SORTABLE, table: "customers" });
        return pageJson(rows.map(customerJson), total, query.limit);
      },
    ),

    defineEndpoint("/v1/customers/:id", { method: "GET", params: z.object({ id: z.string() }), response: Customer, summary: "Get a customer", tag: TAG }, async ({ params, identity }) =>
      customerJson(await byId(identity, "customers:read", params.id)),
    ),
    defineEndpoint("/v1/customers/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: updateBody, response: Customer, summary: "Update a customer", tag: TAG }, async ({ params, body, identity }) =>
      update(await byId(identity, "customers:write", params.id), body),
    ),
    defineEndpoint("/v1/customers/:id", { method: "DELETE", status: 204, params: z.object({ id: z.string() }), query: deleteQuery, summary: "Delete a customer, or anonymize them", tag: TAG }, async ({ params, query, identity }) =>
      remove(await byId(identity, "customers:write", params.id), query.anonymize),
    ),
    defineEndpoint("/v1/customers/:id/state", { method: "GET", params: z.object({ id: z.string() }), response: CustomerState, summary: "Get a customer's state", tag: TAG }, async ({ params, identity }) =>
      customerState(db, await byId(identity, "customers:read", params.id)),
    ),

    defineEndpoint("/v1/customers/external/:externalId", { method: "GET", params: z.object({ externalId: z.string() }), response: Customer, summary: "Get a customer by external ID", tag: TAG }, async ({ params, identity }) =>
      customerJson(await byExternalId(identity, "customers:read", params.externalId)),
    ),
    defineEndpoint(
      "/v1/customers/external/:externalId",
      { method: "PATCH", params: z.object({ externalId: z.string() }), body: updateByExternalIdBody, response: Customer, summary: "Update a customer by external ID", tag: TAG },
      async ({ params, body, identity }) => update(await byExternalId(identity, "customers:write", params.externalId), body),
    ),
    defineEndpoint(
      "/v1/customers/external/:externalId",
      { method: "DELETE", status: 204, params: z.object({ externalId: z.string() }), query: deleteQuery, summary: "Delete a customer by external ID, or anonymize them", tag: TAG },
      async ({ params, query, identity }) => remove(await byExternalId(identity, "customers:write", params.externalId), query.anonymize),
    ),
    defineEndpoint("/v1/customers/external/:externalId/state", { method: "GET", params: z.object({ externalId: z.string() }), response: CustomerState, summary: "Get a customer's state by external ID", tag: TAG }, async ({ params, identity }) =>
      customerState(db, await byExternalId(identity, "customers:read", params.externalId)),
    ),
  ];
}
