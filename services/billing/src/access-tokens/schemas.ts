import { z } from "zod";
import { isoTimestamp, listResource } from "@tollgate/kit";
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

export const OrganizationAccessTokenCreateResponse = z
  .strictObject({ organization_access_token: OrganizationAccessToken, token: z.string().meta({ description: "polar_oat_…: shown this once" }) })
  .meta({ id: "OrganizationAccessTokenCreateResponse" });

/** The properties a list of tokens may be sorted by. */
export const ACCESS_TOKEN_SORT_KEYS = Object.keys(ACCESS_TOKEN_SORTABLE) as (keyof typeof ACCESS_TOKEN_SORTABLE)[];
