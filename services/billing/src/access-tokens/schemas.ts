import { z } from "zod";
import { isoTimestamp, listResource, paging, sorting } from "@tollgate/kit";
import { sellerFilter } from "../http/list-filters.js";
import { SCOPES } from "./scopes.js";
import { ACCESS_TOKEN_SORTABLE } from "./access-tokens.sql.js";

/** A token as it is shown: never the token itself, which only its creator saw, once. */
export const OrganizationAccessToken = z
  .strictObject({
    id: z.string(),
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    scopes: z.array(z.enum(SCOPES)),
    expires_at: isoTimestamp().nullable(),
    comment: z.string(),
    last_used_at: isoTimestamp().nullable(),
    organization_id: z.string(),
  })
  .meta({ id: "OrganizationAccessToken" });

export const OrganizationAccessTokenList = listResource(OrganizationAccessToken, "ListResource_OrganizationAccessToken_");

const scopes = z.array(z.enum(SCOPES)).min(1);

export const OrganizationAccessTokenCreateResponse = z
  .strictObject({ organization_access_token: OrganizationAccessToken, token: z.string().meta({ description: "polar_oat_…: shown this once" }) })
  .meta({ id: "OrganizationAccessTokenCreateResponse" });

/** The properties a list of tokens may be sorted by. */
export const ACCESS_TOKEN_SORT_KEYS = Object.keys(ACCESS_TOKEN_SORTABLE) as (keyof typeof ACCESS_TOKEN_SORTABLE)[];

export const OrganizationAccessTokenCreate = z.object({ organization_id: z.string().nullish(), comment: z.string().min(1).max(255), expires_in: z.string().nullish(), scopes });

export const OrganizationAccessTokenListQuery = z.object({ ...paging, ...sellerFilter, sorting: sorting(ACCESS_TOKEN_SORT_KEYS, "-created_at") });

export const OrganizationAccessTokenUpdate = z.object({ comment: z.string().min(1).max(255).nullish(), scopes: scopes.nullish() });
