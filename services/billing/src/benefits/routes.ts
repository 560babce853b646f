import { z } from "zod";
import { defineEndpoint, type Endpoint, pageJson, reachable } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { metadataFilters } from "../http/metadata.js";
import { benefitJson } from "./output.js";
import {} from "./properties.js";
import { Benefit, BenefitCreate, BenefitDownloadableFileList, BenefitFileListQuery, BenefitList, BenefitListQuery, BenefitUpdate } from "./schemas.js";
import { benefitFilesPage, changeBenefit, createBenefit, deleteBenefit, findBenefit, pageOfBenefits } from "./service.js";
import type { Parts } from "../parts.js";

const TAG = "benefits";

export function benefitEndpoints(parts: Pick<Parts, "db" | "units" | "access" | "config">): Endpoint[] {
  const { db, access } = parts;
  const benefit = async (identity: IdentityClaims, scope: "benefits:read" | "benefits:write", id: string) => reachable(access, identity, scope, await findBenefit(db, id), "Benefit");

  return [
    defineEndpoint("/v1/benefits/", { method: "POST", status: 201, body: BenefitCreate, response: Benefit, summary: "Create a benefit", tag: TAG }, async ({ body, identity }) =>
      benefitJson(await createBenefit(parts, await access.organizationFor(identity, "benefits:write", body.organization_id), body)),
    ),

    defineEndpoint(
      "/v1/benefits/",
      {
        method: "GET",
        query: BenefitListQuery,
        response: BenefitList,
        summary: "List benefits",
        tag: TAG,
      },
      async ({ query, identity, req }) => {
        const organizationIds = await access.organizationIds(identity, "benefits:read");
        const { rows, total } = await pageOfBenefits(db, { ...query, organizationIds, metadata: metadataFilters(req) }, { ...query, sort: query.sorting });
        return pageJson(rows.map(benefitJson), total, query.limit);
      },
    ),

    defineEndpoint("/v1/benefits/:id", { method: "GET", params: z.object({ id: z.string() }), response: Benefit, summary: "Get a benefit", tag: TAG }, async ({ params, identity }) =>
      benefitJson(await benefit(identity, "benefits:read", params.id)),
    ),

    defineEndpoint(
      "/v1/benefits/:id/files",
      { method: "GET", params: z.object({ id: z.string() }), query: BenefitFileListQuery, response: BenefitDownloadableFileList, summary: "List a downloadables benefit's files with their download statistics", tag: TAG },
      async ({ params, query, identity }) => benefitFilesPage(parts, await benefit(identity, "benefits:read", params.id), query),
    ),

    defineEndpoint("/v1/benefits/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: BenefitUpdate, response: Benefit, summary: "Update a benefit", tag: TAG }, async ({ params, body, identity }) =>
      benefitJson(await changeBenefit(parts, await benefit(identity, "benefits:write", params.id), body)),
    ),

    defineEndpoint("/v1/benefits/:id", { method: "DELETE", status: 204, params: z.object({ id: z.string() }), summary: "Delete a benefit", tag: TAG }, async ({ params, identity }) =>
      deleteBenefit(parts, await benefit(identity, "benefits:write", params.id)),
    ),
  ];
}
