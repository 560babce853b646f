import { z } from "zod";
import { listResource } from "@tollgate/kit";
import { Benefit, grantFields, grantProperties } from "../benefits/schemas.js";
import { Customer } from "../customers/schemas.js";

/** A grant as the seller sees it: with its customer and benefit in full. */
const BenefitGrant = z
  .strictObject({ ...grantFields, customer: Customer, member: z.null(), benefit: Benefit, properties: grantProperties })
  .meta({ id: "BenefitGrant" });

export const BenefitGrantList = listResource(BenefitGrant, "ListResource_BenefitGrant_");
