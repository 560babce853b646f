import { z } from "zod";
import { defineEndpoint, reachable, type Endpoint } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { findBenefit } from "../benefits/service.js";
import type { Parts } from "../parts.js";
import { BenefitGrantList, BenefitGrantListQuery, GrantsOfBenefitQuery } from "./schemas.js";
import { shownGrants } from "./service.js";

const TAG = "benefits";

/** The grants of benefits as the seller sees them, each with its customer: a benefit's, or the organization's. */
export function benefitGrantEndpoints({ db, access }: Pick<Parts, "db" | "access">): Endpoint[] {
  const benefit = async (identity: IdentityClaims, id: string) => reachable(access, identity, "benefits:read", await findBenefit(db, id), "Benefit");
  return [
    defineEndpoint(
      "/v1/benefits/:id/grants",
      {
        method: "GET",
        params: z.object({ id: z.string() }),
        query: GrantsOfBenefitQuery,
        response: BenefitGrantList,
        summary: "List a benefit's grants",
        tag: TAG,
      },
      async ({ params, query, identity }) => {
        const granted = await benefit(identity, params.id);
        return shownGrants(db, { ...query, benefitIds: [granted.id], organizationIds: [granted.organization_id] }, { ...query, sort: [{ property: "created_at", descending: true }] });
      },
    ),

    defineEndpoint(
      "/v1/benefit-grants/",
      {
        method: "GET",
        query: BenefitGrantListQuery,
        response: BenefitGrantList,
        summary: "List benefit grants",
        tag: "benefit-grants",
      },
      async ({ query, identity }) => {
        const reachableIds = await access.organizationIds(identity, "benefits:read");
        const organizationIds = query.organization_id ? reachableIds.filter((id) => query.organization_id?.includes(id)) : reachableIds;
        return shownGrants(db, { ...query, organizationIds, externalCustomerIds: query.external_customer_id }, { ...query, sort: query.sorting });
      },
    ),
  ];
}
