import { z } from "zod";
import { isoTimestamp, listResource, paging, queryFlag, sorting } from "@tollgate/kit";
import { sellerFilter } from "../http/list-filters.js";
import { Address, addressInput } from "../http/address.js";
import { TAX_ID_FORMATS } from "../taxes/tax-ids.js";
import { metadataInput, metadataOutput, metadataQuery } from "../http/metadata.js";
import { CUSTOMER_SORTABLE, CUSTOMER_TYPES } from "./customers.sql.js";

/** Polar gives a tax number with the format it recognised (null for one kept before Tollgate read formats). */
export const TaxId = z.tuple([z.string(), z.enum(TAX_ID_FORMATS).nullable()]).nullable();

/** A customer, an individual or a team; orders, subscriptions and license keys carry it too. */
export const Customer = z
  .strictObject({
    id: z.string(),
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    metadata: metadataOutput,
    external_id: z.string().nullable(),
    email: z.string(),
    email_verified: z.boolean(),
    type: z.enum(CUSTOMER_TYPES),
    name: z.string().nullable(),
    billing_name: z.string().nullable(),
    billing_address: Address.nullable(),
    tax_id: TaxId,
    locale: z.string().nullable(),
    organization_id: z.string(),
    deleted_at: isoTimestamp().nullable(),
    first_user_event_at: isoTimestamp().nullable(),
    avatar_url: z.url(),
  })
  .meta({ id: "Customer" });

export const CustomerList = listResource(Customer, "ListResource_Customer_");

const email = z.email().transform((value) => value.toLowerCase());
const editable = {
  name: z.string().max(256).nullish(),
  billing_address: addressInput.nullish(),
  tax_id: z.string().min(1).nullish(),
  locale: z.string().nullish(),
  metadata: metadataInput.optional(),
};

/** Polar's MemberOwnerCreate: the owner member a customer is made with, when it is not the customer's own e-mail and name. */
export const MemberOwnerCreate = z.object({
  email: z.email(),
  name: z.string().max(256).nullish(),
  external_id: z.string().nullish().transform((value) => value || null),
});

/**
 * A seller's new customer: an individual (the default), who has an e-mail, or a team, which may
 * leave its e-mail to its owner's (Polar's team has none of its own then; here every customer has one,
 * so it is the owner's). One object, not a union by type, so that a refusal names what is missing.
 */
export const CustomerCreateBody = z
  .object({
    ...editable,
    type: z.enum(CUSTOMER_TYPES).default("individual"),
    email: email.nullish(),
    external_id: z.string().min(1).nullish(),
    organization_id: z.string().nullish(),
    owner: MemberOwnerCreate.nullish(),
  })
  .superRefine((body, context) => {
    if (body.email) return;
    if (body.type === "individual") context.addIssue({ code: "custom", path: ["email"], message: "Field required", input: body.email });
    else if (!body.owner) context.addIssue({ code: "custom", path: [], message: "An owner with an email address is required when creating a team customer without an email.", input: body });
  })
  .transform(({ email: own, ...body }) => ({ ...body, email: own ?? (body.owner?.email ?? "").toLowerCase() }));

/** A change to a customer found by id: a type only from individual to team. */
export const CustomerUpdateBody = z.object({ ...editable, email: email.nullish(), external_id: z.string().min(1).nullish(), type: z.enum(CUSTOMER_TYPES).nullish() });
/** A change to a customer found by external id (which, there, cannot change). */
export const CustomerUpdateByExternalIdBody = z.object({ ...editable, email: email.nullish() });

/** The properties a list of customers may be sorted by. */
export const CUSTOMER_SORT_KEYS = Object.keys(CUSTOMER_SORTABLE) as (keyof typeof CUSTOMER_SORTABLE)[];

/** Polar's customer export takes the sellers only. */
export const CustomerExportQuery = z.object({ ...sellerFilter });

export const CustomerListQuery = z.object({
  metadata: metadataQuery,
  ...paging,
  ...sellerFilter,
  email: z.string().optional(),
  query: z.string().optional(),
  active: queryFlag().optional(),
  sorting: sorting(CUSTOMER_SORT_KEYS, "-created_at"),
});

/** Deleting a customer: removed, or kept with what identifies them erased. */
export const CustomerDeleteQuery = z.object({ anonymize: queryFlag().default(false) });
