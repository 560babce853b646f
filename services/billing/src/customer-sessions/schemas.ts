import { z } from "zod";
import { isoTimestamp, webUrl } from "@tollgate/kit";
import { Customer } from "../customers/schemas.js";

/** A customer session: its token opens the customer portal for an hour. */
export const CustomerSession = z
  .strictObject({
    id: z.string(),
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    token: z.string().meta({ description: "polar_cst_…" }),
    expires_at: isoTimestamp(),
    return_url: z.string().nullable(),
    customer_portal_url: z.url(),
    customer_id: z.string(),
    customer: Customer,
  })
  .meta({ id: "CustomerSession" });

/** For whom among the customer's members (Polar's member session): one named by id or external id, else the owner of an individual. */
const member = { member_id: z.string().nullish(), external_member_id: z.string().nullish(), return_url: webUrl().nullish() };

/** A seller opens the portal for a customer named by id or by their own (external) id. */
export const CustomerSessionCreate = z.union([z.object({ customer_id: z.string(), ...member }), z.object({ external_customer_id: z.string(), ...member })]);
