import { z } from "zod";
import { defineEndpoint, type Endpoint, notFound, pageJson } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { accessTokenJson } from "./output.js";
import { OrganizationAccessToken, OrganizationAccessTokenCreate, OrganizationAccessTokenCreateResponse, OrganizationAccessTokenList, OrganizationAccessTokenListQuery, OrganizationAccessTokenUpdate } from "./schemas.js";
import {} from "./scopes.js";
import { changeAccessToken, createAccessToken, findAccessToken, pageOfAccessTokens, removeAccessToken } from "./service.js";
import type { Parts } from "../parts.js";

const TAG = "oauth2/organization_access_tokens";

export function accessTokenEndpoints(parts: Pick<Parts, "db" | "units" | "access">): Endpoint[] {
  const { db, access } = parts;
  const reachableToken = async (identity: IdentityClaims, scope: "organization_access_tokens:read" | "organization_access_tokens:write", id: string) => {
    const token = await findAccessToken(db, id);
    if (!token || !(await access.allows(identity, scope, token.organization_id))) throw notFound("Organization access token");
    return token;
  };
  return [
    defineEndpoint(
      "/v1/organization-access-tokens/",
      {
        method: "POST",
        status: 201,
        body: OrganizationAccessTokenCreate,
        response: OrganizationAccessTokenCreateResponse,
        summary: "Create an organization access token",
        tag: TAG,
      },
      async ({ body, identity }) => {
        const organizationId = await access.organizationFor(identity, "organization_access_tokens:write", body.organization_id);
        const { row, token } = await createAccessToken(parts, identity, organizationId, body);
        return { organization_access_token: accessTokenJson(row), token };
      },
    ),

    defineEndpoint(
      "/v1/organization-access-tokens/",
      {
        method: "GET",
        query: OrganizationAccessTokenListQuery,
        response: OrganizationAccessTokenList,
        summary: "List organization access tokens",
        tag: TAG,
      },
      async ({ query, identity }) => {
        const organizationIds = await access.organizationIds(identity, "organization_access_tokens:read");
        const { rows, total } = await pageOfAccessTokens(db, { ...query, organizationIds }, { ...query, sort: query.sorting });
        return pageJson(rows.map(accessTokenJson), total, query.limit);
      },
    ),

    defineEndpoint(
      "/v1/organization-access-tokens/:id",
      {
        method: "PATCH",
        params: z.object({ id: z.string() }),
        body: OrganizationAccessTokenUpdate,
        response: OrganizationAccessToken,
        summary: "Update an organization access token",
        tag: TAG,
      },
      async ({ params, body, identity }) => accessTokenJson(await changeAccessToken(parts, identity, await reachableToken(identity, "organization_access_tokens:write", params.id), body)),
    ),

    defineEndpoint("/v1/organization-access-tokens/:id", { method: "DELETE", status: 204, params: z.object({ id: z.string() }), summary: "Delete an organization access token", tag: TAG }, async ({ params, identity }) =>
      removeAccessToken(parts, await reachableToken(identity, "organization_access_tokens:write", params.id)),
    ),
  ];
}
