import { z } from "zod";
import { listResource, paging, queryFlag, repeated, sorting } from "@tollgate/kit";
import { Benefit, grantFields, grantProperties } from "../benefits/schemas.js";
import { Customer } from "../customers/schemas.js";
import { customerFilter, customerListFilters } from "../http/list-filters.js";
import { Member } from "../members/schemas.js";

/** A grant as the seller sees it: with its customer, the seat member holding it and its benefit in full. */
const BenefitGrant = z
  .strictObject({ ...grantFields, customer: Customer, member: Member.nullable(), benefit: Benefit, properties: grantProperties })
  .meta({ id: "BenefitGrant" });

export const BenefitGrantList = listResource(BenefitGrant, "ListResource_BenefitGrant_");

/** A benefit's grants, by whom they were granted to and whether they still hold. */
export const GrantsOfBenefitQuery = z.object({ ...paging, is_granted: queryFlag().optional(), customer_id: customerFilter.customer_id, member_id: repeated(z.string()) });

export const BenefitGrantListQuery = z.object({
  ...paging,
  ...customerListFilters,
  is_granted: queryFlag().optional(),
  sorting: sorting(["created_at", "granted_at", "revoked_at"] as const, "-created_at"),
});
