import { z } from "zod";
import { isoTimestamp, listResource, paging, queryFlag, sorting } from "@tollgate/kit";
import { sellerFilter } from "../http/list-filters.js";
import { Address, addressInput } from "../http/address.js";
import { TAX_ID_FORMATS } from "../taxes/tax-ids.js";
import { metadataInput, metadataOutput, metadataQuery } from "../http/metadata.js";
import { CUSTOMER_SORTABLE } from "./customers.sql.js";

/** Polar gives a tax number with the format it recognised (null for one kept before Tollgate read formats). */
export const TaxId = z.tuple([z.string(), z.enum(TAX_ID_FORMATS).nullable()]).nullable();

/** An individual customer (Polar's teams are not offered); orders, subscriptions and license keys carry it too. */
export const Customer = z
  .strictObject({
    id: z.string(),
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    metadata: metadataOutput,
    external_id: z.string().nullable(),
    email: z.string(),
    email_verified: z.boolean(),
    type: z.literal("individual"),
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

/** A seller's new customer. */
export const CustomerCreateBody = z.object({
  ...editable,
  email,
  external_id: z.string().min(1).nullish(),
  organization_id: z.string().nullish(),
  type: z.literal("individual").optional(),
});
/** A change to a customer found by id. */
export const CustomerUpdateBody = z.object({ ...editable, email: email.nullish(), external_id: z.string().min(1).nullish(), type: z.literal("individual").nullish() });
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
