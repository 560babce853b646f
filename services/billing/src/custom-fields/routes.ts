import { z } from "zod";
import { defineEndpoint, type Endpoint, pageJson, reachable } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { customFieldJson } from "./output.js";
import {} from "./properties.js";
import { CustomField, CustomFieldCreate, CustomFieldList, CustomFieldListQuery, CustomFieldUpdate } from "./schemas.js";
import { changeCustomField, createCustomField, findCustomField, pageOfCustomFields, removeCustomField } from "./service.js";
import type { Parts } from "../parts.js";

const TAG = "custom-fields";

export function customFieldEndpoints({ db, access }: Pick<Parts, "db" | "access">): Endpoint[] {
  const field = async (identity: IdentityClaims, scope: "custom_fields:read" | "custom_fields:write", id: string) => reachable(access, identity, scope, await findCustomField(db, id), "Custom field");
  return [
    defineEndpoint("/v1/custom-fields/", { method: "POST", status: 201, body: CustomFieldCreate, response: CustomField, summary: "Create a custom field", tag: TAG }, async ({ body, identity }) =>
      customFieldJson(await createCustomField(db, await access.organizationFor(identity, "custom_fields:write", body.organization_id), body)),
    ),

    defineEndpoint(
      "/v1/custom-fields/",
      {
        method: "GET",
        query: CustomFieldListQuery,
        response: CustomFieldList,
        summary: "List custom fields",
        tag: TAG,
      },
      async ({ query, identity }) => {
        const organizationIds = await access.organizationIds(identity, "custom_fields:read");
        const { rows, total } = await pageOfCustomFields(db, { ...query, organizationIds }, { ...query, sort: query.sorting });
        return pageJson(rows.map(customFieldJson), total, query.limit);
      },
    ),

    defineEndpoint("/v1/custom-fields/:id", { method: "GET", params: z.object({ id: z.string() }), response: CustomField, summary: "Get a custom field", tag: TAG }, async ({ params, identity }) =>
      customFieldJson(await field(identity, "custom_fields:read", params.id)),
    ),

    defineEndpoint("/v1/custom-fields/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: CustomFieldUpdate, response: CustomField, summary: "Update a custom field", tag: TAG }, async ({ params, body, identity }) =>
      customFieldJson(await changeCustomField(db, await field(identity, "custom_fields:write", params.id), body)),
    ),

    defineEndpoint("/v1/custom-fields/:id", { method: "DELETE", status: 204, params: z.object({ id: z.string() }), summary: "Delete a custom field", tag: TAG }, async ({ params, identity }) =>
      removeCustomField(db, await field(identity, "custom_fields:write", params.id)),
    ),
  ];
}
