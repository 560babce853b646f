import { z } from "zod";
import { isoTimestamp } from "@tollgate/kit";

/** An account as list-accounts shows it: which provider, never a password or a provider's token. */
export const Account = z
  .strictObject({
    id: z.string(),
    providerId: z.string().meta({ description: "`credential` for the password, else the social provider's id" }),
    accountId: z.string().meta({ description: "The provider's id for the person" }),
    userId: z.string(),
    scopes: z.array(z.string()),
    createdAt: isoTimestamp(),
    updatedAt: isoTimestamp(),
  })
  .meta({ id: "Account" });

/**
 * better-auth 1.7 names the account row (`accountId`); earlier clients, and our own description of the
 * endpoint, name the provider (`providerId`) and optionally the provider's id for the person. One of
 * the two is required, as a union rather than a refine, so that the API's description says so too.
 */
export const UnlinkRequest = z.union(
  [z.object({ accountId: z.string(), providerId: z.string().optional() }), z.object({ accountId: z.string().optional(), providerId: z.string() })],
  { error: "accountId or providerId is required" },
);
