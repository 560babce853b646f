import { z } from "zod";
import { defineEndpoint, pageJson, reachable, sendCsv, type Endpoint } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { metadataFilters } from "../http/metadata.js";
import { customerJson } from "./output.js";
import { CUSTOMER_EXPORT_HEADER, customerExportRows } from "./export.js";
import { Customer, CustomerCreateBody, CustomerDeleteQuery, CustomerExportQuery, CustomerList, CustomerListQuery, CustomerUpdateBody, CustomerUpdateByExternalIdBody } from "./schemas.js";
import { createCustomer, findCustomer, pageOfCustomers, reachableByExternalId, removeCustomer, reviseCustomer, type CustomerStateView } from "./service.js";
import type { Parts } from "../parts.js";

const TAG = "customers";

export function customerEndpoints(parts: Pick<Parts, "db" | "units" | "access"> & { state: CustomerStateView }): Endpoint[] {
  const { db, access, state } = parts;
  const byId = async (identity: IdentityClaims, scope: "customers:read" | "customers:write", id: string) => reachable(access, identity, scope, await findCustomer(db, id), "Customer");
  const byExternalId = (identity: IdentityClaims, scope: "customers:read" | "customers:write", externalId: string) => reachableByExternalId(db, access, identity, scope, externalId);

  return [
    // Before /v1/customers/:id, which would take "export" for an id.
    defineEndpoint("/v1/customers/export", { method: "GET", query: CustomerExportQuery, produces: "text/csv", summary: "Export customers as a CSV file", tag: TAG }, async ({ query, identity, res }) => {
      const organizationIds = await access.organizationIds(identity, "customers:read");
      await sendCsv(res, "customers.csv", CUSTOMER_EXPORT_HEADER, customerExportRows(db, organizationIds, query.organization_id));
    }),
    defineEndpoint("/v1/customers/", { method: "POST", status: 201, body: CustomerCreateBody, response: Customer, summary: "Create a customer", tag: TAG }, async ({ body, identity }) =>
      customerJson(await createCustomer(parts, await access.organizationFor(identity, "customers:write", body.organization_id), body)),
    ),

    defineEndpoint(
      "/v1/customers/",
      {
        method: "GET",
        query: CustomerListQuery,
        response: CustomerList,
        summary: "List customers",
        tag: TAG,
      },
      async ({ query, identity, req }) => {
        const filter = { organizationIds: await access.organizationIds(identity, "customers:read"), organizationId: query.organization_id, email: query.email, text: query.query, metadata: metadataFilters(req), active: query.active };
        const { rows, total } = await pageOfCustomers(db, filter, { ...query, sort: query.sorting });
        return pageJson(rows.map(customerJson), total, query.limit);
      },
    ),

    defineEndpoint("/v1/customers/:id", { method: "GET", params: z.object({ id: z.string() }), response: Customer, summary: "Get a customer", tag: TAG }, async ({ params, identity }) =>
      customerJson(await byId(identity, "customers:read", params.id)),
    ),
    defineEndpoint("/v1/customers/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: CustomerUpdateBody, response: Customer, summary: "Update a customer", tag: TAG }, async ({ params, body, identity }) =>
      customerJson(await reviseCustomer(parts, await byId(identity, "customers:write", params.id), body)),
    ),
    defineEndpoint("/v1/customers/:id", { method: "DELETE", status: 204, params: z.object({ id: z.string() }), query: CustomerDeleteQuery, summary: "Delete a customer, or anonymize them", tag: TAG }, async ({ params, query, identity }) =>
      removeCustomer(parts, await byId(identity, "customers:write", params.id), query.anonymize),
    ),
    defineEndpoint("/v1/customers/:id/state", { method: "GET", params: z.object({ id: z.string() }), response: state.response, summary: "Get a customer's state", tag: TAG }, async ({ params, identity }) =>
      state.of(await byId(identity, "customers:read", params.id)),
    ),

    defineEndpoint("/v1/customers/external/:externalId", { method: "GET", params: z.object({ externalId: z.string() }), response: Customer, summary: "Get a customer by external ID", tag: TAG }, async ({ params, identity }) =>
      customerJson(await byExternalId(identity, "customers:read", params.externalId)),
    ),
    defineEndpoint(
      "/v1/customers/external/:externalId",
      { method: "PATCH", params: z.object({ externalId: z.string() }), body: CustomerUpdateByExternalIdBody, response: Customer, summary: "Update a customer by external ID", tag: TAG },
      async ({ params, body, identity }) => customerJson(await reviseCustomer(parts, await byExternalId(identity, "customers:write", params.externalId), body)),
    ),
    defineEndpoint(
      "/v1/customers/external/:externalId",
      { method: "DELETE", status: 204, params: z.object({ externalId: z.string() }), query: CustomerDeleteQuery, summary: "Delete a customer by external ID, or anonymize them", tag: TAG },
      async ({ params, query, identity }) => removeCustomer(parts, await byExternalId(identity, "customers:write", params.externalId), query.anonymize),
    ),
    defineEndpoint("/v1/customers/external/:externalId/state", { method: "GET", params: z.object({ externalId: z.string() }), response: state.response, summary: "Get a customer's state by external ID", tag: TAG }, async ({ params, identity }) =>
      state.of(await byExternalId(identity, "customers:read", params.externalId)),
    ),
  ];
}
