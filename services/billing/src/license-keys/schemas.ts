import { z } from "zod";
import { isoTimestamp, listResource } from "@tollgate/kit";
import { Customer } from "../customers/schemas.js";

/** A device (or installation) a key is activated on. */
const LicenseKeyActivationBase = z
  .strictObject({
    id: z.string(),
    license_key_id: z.string(),
    label: z.string(),
    meta: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
  })
  .meta({ id: "LicenseKeyActivationBase" });

export const LicenseKeyRead = z
  .strictObject({
    id: z.string(),
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    organization_id: z.string(),
    customer_id: z.string(),
    customer: Customer,
    benefit_id: z.string(),
    key: z.string(),
    display_key: z.string(),
    status: z.enum(["granted", "revoked", "disabled"]),
    limit_activations: z.int().nullable(),
    usage: z.int(),
    limit_usage: z.int().nullable(),
    validations: z.int(),
    last_validated_at: isoTimestamp().nullable(),
    expires_at: isoTimestamp().nullable(),
  })
  .meta({ id: "LicenseKeyRead" });

export const LicenseKeyList = listResource(LicenseKeyRead, "ListResource_LicenseKeyRead_");

export const LicenseKeyWithActivations = LicenseKeyRead.extend({ activations: z.array(LicenseKeyActivationBase) }).meta({ id: "LicenseKeyWithActivations" });

/** A key that passed validation, with the activation it was validated for. */
export const ValidatedLicenseKey = LicenseKeyRead.extend({ activation: LicenseKeyActivationBase.nullable() }).meta({ id: "ValidatedLicenseKey" });

export const LicenseKeyActivationRead = LicenseKeyActivationBase.extend({ license_key: LicenseKeyRead }).meta({ id: "LicenseKeyActivationRead" });
