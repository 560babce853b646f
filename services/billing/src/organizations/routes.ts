import { z } from "zod";
import { defineEndpoint, type Endpoint, notFound, pageJson } from "@tollgate/kit";
import { IDENTITY_HEADER, type IdentityClaims } from "@tollgate/proto";
import { sellerJson, taxSettingsJson } from "./output.js";
import { Organization, OrganizationCreate, OrganizationList, OrganizationListQuery, OrganizationUpdate, TaxSettings, TaxSettingsUpdate } from "./schemas.js";
import { changeSeller, changeTaxSettings, createSeller, findSeller, pageOfSellers, type SellerRow } from "./service.js";
import type { Parts } from "../parts.js";

const TAG = "organizations";

export function organizationEndpoints({ db, units, access, request }: Pick<Parts, "db" | "units" | "access" | "request">): Endpoint[] {
  /** The seller, if the caller may act on it with `scope`. */
  const reachableSeller = async (identity: IdentityClaims, scope: "organizations:read" | "organizations:write", id: string): Promise<SellerRow> => {
    const seller = (await access.allows(identity, scope, id)) ? await findSeller(db, id) : undefined;
    if (!seller) throw notFound("Organization");
    return seller;
  };
  return [
    defineEndpoint(
      "/v1/organizations/",
      {
        method: "GET",
        query: OrganizationListQuery,
        response: OrganizationList,
        summary: "List organizations",
        tag: TAG,
      },
      async ({ query, identity }) => {
        const ids = await access.organizationIds(identity, "organizations:read");
        const { rows, total } = await pageOfSellers(db, { ids, slug: query.slug }, { ...query, sort: query.sorting });
        return pageJson(rows.map(sellerJson), total, query.limit);
      },
    ),

    defineEndpoint(
      "/v1/organizations/",
      { method: "POST", body: OrganizationCreate, response: Organization, status: 201, summary: "Create an organization", tag: TAG },
      // The gateway's signed token is the proof the organization service asks for of who is creating it.
      async ({ body, identity, req }) => createSeller({ units, request }, identity, req.get(IDENTITY_HEADER) ?? "", body),
    ),

    defineEndpoint("/v1/organizations/:id", { method: "GET", params: z.object({ id: z.string() }), response: Organization, summary: "Get an organization", tag: TAG }, async ({ params, identity }) =>
      sellerJson(await reachableSeller(identity, "organizations:read", params.id)),
    ),

    defineEndpoint("/v1/organizations/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: OrganizationUpdate, response: Organization, summary: "Update an organization", tag: TAG }, async ({ params, body, identity }) =>
      changeSeller(units, await reachableSeller(identity, "organizations:write", params.id), body),
    ),

    // Tollgate's own: Polar reckons tax through Stripe Tax; a self-hosted seller says where they charge it.
    defineEndpoint("/v1/organizations/:id/tax-settings", { method: "GET", params: z.object({ id: z.string() }), response: TaxSettings, summary: "Get an organization's tax settings", tag: TAG }, async ({ params, identity }) =>
      taxSettingsJson(await reachableSeller(identity, "organizations:read", params.id)),
    ),

    defineEndpoint(
      "/v1/organizations/:id/tax-settings",
      { method: "PATCH", params: z.object({ id: z.string() }), body: TaxSettingsUpdate, response: TaxSettings, summary: "Update an organization's tax settings", tag: TAG },
      async ({ params, body, identity }) => changeTaxSettings(units, await reachableSeller(identity, "organizations:write", params.id), body),
    ),
  ];
}
