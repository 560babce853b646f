import { z } from "zod";
import { isoTimestamp, listResource, momentInput, paging, pgInteger, repeated, since, sorting } from "@tollgate/kit";
import { sellerFilter } from "../http/list-filters.js";
import { Customer } from "../customers/schemas.js";

/** Where a key stands: usable, taken back with its grant, or turned off by the seller. */
const LicenseKeyStatus = z.enum(["granted", "revoked", "disabled"]);

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

/** The seat member holding a key (API version 2026-10 on). */
const LicenseKeyMember = z.strictObject({ id: z.string(), email: z.string(), external_id: z.string().nullable() }).meta({ id: "LicenseKeyMember" });

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
    status: LicenseKeyStatus,
    limit_activations: z.int().nullable(),
    usage: z.int(),
    limit_usage: z.int().nullable(),
    validations: z.int(),
    last_validated_at: isoTimestamp().nullable(),
    expires_at: isoTimestamp().nullable(),
    member_id: since("2026-10", z.string().nullable()),
    member: since("2026-10", LicenseKeyMember.nullable()),
  })
  .meta({ id: "LicenseKeyRead" });

export const LicenseKeyList = listResource(LicenseKeyRead, "ListResource_LicenseKeyRead_");

export const LicenseKeyWithActivations = LicenseKeyRead.extend({ activations: z.array(LicenseKeyActivationBase) }).meta({ id: "LicenseKeyWithActivations" });

/** The purchase a key came with (API version 2027-01 on): its subscription, or its one-time order. */
const LicenseKeySubscription = z
  .strictObject({
    id: z.string(),
    status: z.enum(["incomplete", "incomplete_expired", "trialing", "active", "past_due", "canceled", "unpaid", "paused"]),
    current_period_start: isoTimestamp(),
    current_period_end: isoTimestamp(),
    cancel_at_period_end: z.boolean(),
    ends_at: isoTimestamp().nullable(),
  })
  .meta({ id: "LicenseKeySubscription" });
const LicenseKeyOrder = z
  .strictObject({ id: z.string(), created_at: isoTimestamp(), status: z.enum(["pending", "paid", "refunded", "partially_refunded", "void"]), paid: z.boolean() })
  .meta({ id: "LicenseKeyOrder" });

/** A key as validations and activations show it, with the purchase it came with. */
export const GrantedLicenseKey = LicenseKeyRead.extend({
  subscription_id: since("2027-01", z.string().nullable()),
  subscription: since("2027-01", LicenseKeySubscription.nullable()),
  order_id: since("2027-01", z.string().nullable()),
  order: since("2027-01", LicenseKeyOrder.nullable()),
}).meta({ id: "GrantedLicenseKey" });

/** A key that passed validation, with the activation it was validated for. */
export const ValidatedLicenseKey = GrantedLicenseKey.extend({ activation: LicenseKeyActivationBase.nullable() }).meta({ id: "ValidatedLicenseKey" });

/** A new activation, with the key it activated. */
export const LicenseKeyActivationCreated = LicenseKeyActivationBase.extend({ license_key: GrantedLicenseKey }).meta({ id: "LicenseKeyActivationCreated" });

export const LicenseKeyActivationRead = LicenseKeyActivationBase.extend({ license_key: LicenseKeyRead }).meta({ id: "LicenseKeyActivationRead" });

const conditions = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
export const LicenseKeyValidate = z.object({
  key: z.string(),
  organization_id: z.string(),
  activation_id: z.string().nullish(),
  benefit_id: z.string().nullish(),
  customer_id: z.string().nullish(),
  increment_usage: pgInteger().min(1).nullish(),
  conditions: conditions.optional(),
});
export const LicenseKeyActivate = z.object({ key: z.string(), organization_id: z.string(), label: z.string().min(1).max(256), conditions: conditions.optional(), meta: conditions.optional() });
export const LicenseKeyDeactivate = z.object({ key: z.string(), organization_id: z.string(), activation_id: z.string() });
export const LicenseKeyUpdate = z.object({
  status: LicenseKeyStatus.nullish(),
  usage: pgInteger().min(0).optional(),
  limit_activations: z.int().min(1).max(50).nullish(),
  limit_usage: pgInteger().min(1).nullish(),
  expires_at: momentInput().nullish(),
});

export const LicenseKeyListQuery = z.object({ ...paging, ...sellerFilter, benefit_id: repeated(z.string()), status: repeated(LicenseKeyStatus), sorting: sorting(["created_at"], "-created_at") });
