import * as z from "zod/mini";
import { addressFields, addressNeedsCountry } from "../../forms/address";
import { metadataText } from "../../forms/metadata";
import { email } from "../../forms/schemas";

/** One person, or a team whose members share its purchases' seats. */
export const CUSTOMER_TYPES = ["individual", "team"] as const;

/** A customer in the seller's console: its type, e-mail, name, external id, billing address and metadata as JSON. */
export const customerForm = z
  .object({
    type: z.enum(CUSTOMER_TYPES),
    email: z.pipe(z.string().check(z.trim()), email),
    name: z.string().check(z.trim(), z.maxLength(256)),
    externalId: z.string().check(z.trim()),
    ...addressFields,
    metadata: metadataText,
  })
  .check(addressNeedsCountry);
export type CustomerForm = z.input<typeof customerForm>;
