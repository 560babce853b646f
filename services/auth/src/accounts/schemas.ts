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
