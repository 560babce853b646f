import { z } from "zod";
import { isoTimestamp, listResource, paging, sorting } from "@tollgate/kit";
import { MEMBER_ROLES, MEMBER_SORTABLE } from "./members.sql.js";

/** A member of a customer, as Polar shows it. */
export const Member = z
  .strictObject({
    id: z.string(),
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    customer_id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    external_id: z.string().nullable(),
    role: z.enum(MEMBER_ROLES),
  })
  .meta({ id: "Member" });

export const MemberList = listResource(Member, "ListResource_Member_");

const name = z.string().max(256).nullish();
/** Polar reads an empty external id as none. */
const externalId = z
  .string()
  .nullish()
  .transform((value) => value || null);

/** A new member of the customer in the path: never an owner, whose place is handed on by an update. */
export const MemberCreateFromCustomer = z.object({
  email: z.email(),
  name,
  external_id: externalId,
  role: z.enum(["member", "billing_manager"]).default("member"),
});

/** 0.47's create, with the customer in the body. */
export const MemberCreate = MemberCreateFromCustomer.extend({ customer_id: z.string() });

export const MemberUpdate = z.object({
  name,
  email: z.email().nullish(),
  role: z.enum(MEMBER_ROLES).nullish(),
});

const MEMBER_SORT_KEYS = Object.keys(MEMBER_SORTABLE) as (keyof typeof MEMBER_SORTABLE)[];

/** A customer's members, a page at a time. */
export const CustomerMemberListQuery = z.object({
  ...paging,
  role: z.enum(MEMBER_ROLES).optional(),
  sorting: sorting(MEMBER_SORT_KEYS, "-created_at"),
});

/** 0.47's list of the seller's members, narrowed to a customer by either id. */
export const MemberListQuery = CustomerMemberListQuery.extend({
  customer_id: z.string().optional(),
  external_customer_id: z.string().optional(),
});

/** 0.47's member by external id: the customer it is unique in, named by exactly one of its ids. */
export const MemberCustomerQuery = z.object({
  customer_id: z.string().optional(),
  external_customer_id: z.string().optional(),
});
