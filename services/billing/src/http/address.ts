import { z } from "zod";

/** A postal address as it goes out: every line present, null when not given. */
export const Address = z
  .strictObject({
    line1: z.string().nullable(),
    line2: z.string().nullable(),
    postal_code: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    country: z.string(),
  })
  .meta({ id: "Address" });

/** A postal address as Polar takes it: every line optional but the two-letter country, stored with nulls. */
export const addressInput = z
  .object({
    line1: z.string().nullish(),
    line2: z.string().nullish(),
    postal_code: z.string().nullish(),
    city: z.string().nullish(),
    state: z.string().nullish(),
    country: z.string().regex(/^[A-Za-z]{2}$/, { error: "Use the country's two-letter ISO code" }),
  })
  .transform((address) => ({
    line1: address.line1 ?? null,
    line2: address.line2 ?? null,
    postal_code: address.postal_code ?? null,
    city: address.city ?? null,
    state: address.state ?? null,
    country: address.country.toUpperCase(),
  }));
