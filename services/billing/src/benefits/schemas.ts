import { z } from "zod";
import { isoTimestamp, listResource, paging, repeated, sorting } from "@tollgate/kit";
import { DownloadableFileRead } from "../files/schemas.js";
import { sellerFilter } from "../http/list-filters.js";
import { metadataInput, metadataOutput, metadataQuery } from "../http/metadata.js";
import { CustomerOrganization } from "../organizations/schemas.js";
import { BENEFIT_PROPERTIES, BENEFIT_TYPES, type BenefitType } from "./properties.js";
import { BENEFIT_SORTABLE } from "./benefits.sql.js";

/** What anyone sees of a benefit: what it is, not how it is configured. */
const publicFields = {
  id: z.string(),
  created_at: isoTimestamp(),
  modified_at: isoTimestamp().nullable(),
  description: z.string(),
  selectable: z.boolean(),
  deletable: z.boolean(),
  is_deleted: z.boolean(),
  organization_id: z.string(),
};

/** Polar lets a benefit be kept off the checkout and portal (draft, private); Tollgate shows every benefit, so each is public. */
const visibilityFields = { visibility: z.enum(["draft", "private", "public"]), visibility_configurable: z.boolean() };

export const BenefitPublic = z.strictObject({ ...publicFields, type: z.enum(BENEFIT_TYPES) }).meta({ id: "BenefitPublic" });

/** Properties as they are stored (storedProperties): every field present, nullable ones as null. */
const BenefitCustomProperties = z.strictObject({ note: z.string().nullable() }).meta({ id: "BenefitCustomProperties" });
const BenefitLicenseKeysProperties = z
  .strictObject({
    prefix: z.string().nullable(),
    expires: z.strictObject({ ttl: z.int(), timeframe: z.enum(["year", "month", "day"]) }).meta({ id: "BenefitLicenseKeyExpirationProperties" }).nullable(),
    activations: z.strictObject({ limit: z.int(), enable_customer_admin: z.boolean() }).meta({ id: "BenefitLicenseKeyActivationProperties" }).nullable(),
    limit_usage: z.int().nullable(),
  })
  .meta({ id: "BenefitLicenseKeysProperties" });
const BenefitMeterCreditProperties = z.strictObject({ units: z.int(), rollover: z.boolean(), meter_id: z.string() }).meta({ id: "BenefitMeterCreditProperties" });

const benefitOf = <Type extends BenefitType, Properties extends z.ZodType>(type: Type, properties: Properties, id: string) =>
  z.strictObject({ ...publicFields, type: z.literal(type), metadata: metadataOutput, ...visibilityFields, properties }).meta({ id });

export const Benefit = z
  .discriminatedUnion("type", [
    benefitOf("custom", BenefitCustomProperties, "BenefitCustom"),
    benefitOf(
      "discord",
      z.strictObject({ guild_id: z.string(), role_id: z.string(), kick_member: z.boolean(), guild_token: z.string() }).meta({ id: "BenefitDiscordProperties" }),
      "BenefitDiscord",
    ),
    benefitOf(
      "github_repository",
      z.strictObject({ repository_owner: z.string(), repository_name: z.string(), permission: z.enum(["pull", "triage", "push", "maintain", "admin"]) }).meta({ id: "BenefitGitHubRepositoryProperties" }),
      "BenefitGitHubRepository",
    ),
    benefitOf("downloadables", z.strictObject({ archived: z.record(z.string(), z.boolean()), files: z.array(z.string()) }).meta({ id: "BenefitDownloadablesProperties" }), "BenefitDownloadables"),
    benefitOf("license_keys", BenefitLicenseKeysProperties, "BenefitLicenseKeys"),
    benefitOf("meter_credit", BenefitMeterCreditProperties, "BenefitMeterCredit"),
  ])
  .meta({ id: "Benefit" });

export const BenefitList = listResource(Benefit, "ListResource_Benefit_");

const subscriberOf = <Type extends BenefitType, Properties extends z.ZodType>(type: Type, properties: Properties, id: string) =>
  z.strictObject({ ...publicFields, type: z.literal(type), metadata: metadataOutput, ...visibilityFields, organization: CustomerOrganization, properties }).meta({ id });

/** Each type of benefit as a customer who holds it sees it (subscriberProperties): never the seller's secrets. */
export const BenefitSubscriber = {
  custom: subscriberOf("custom", BenefitCustomProperties, "BenefitCustomSubscriber"),
  discord: subscriberOf("discord", z.strictObject({ guild_id: z.string() }).meta({ id: "BenefitDiscordSubscriberProperties" }), "BenefitDiscordSubscriber"),
  github_repository: subscriberOf(
    "github_repository",
    z.strictObject({ repository_owner: z.string(), repository_name: z.string() }).meta({ id: "BenefitGitHubRepositorySubscriberProperties" }),
    "BenefitGitHubRepositorySubscriber",
  ),
  downloadables: subscriberOf("downloadables", z.strictObject({ active_files: z.array(z.string()) }).meta({ id: "BenefitDownloadablesSubscriberProperties" }), "BenefitDownloadablesSubscriber"),
  license_keys: subscriberOf("license_keys", BenefitLicenseKeysProperties, "BenefitLicenseKeysSubscriber"),
  meter_credit: subscriberOf("meter_credit", BenefitMeterCreditProperties, "BenefitMeterCreditSubscriber"),
} satisfies Record<BenefitType, z.ZodType>;

/** What a grant holds (granting.ts): the key it issued, the files it gives, the meter credit it gave, or for any other type nothing. */
const nothing = z.strictObject({});
export const BenefitGrantProperties = {
  custom: nothing,
  discord: nothing,
  github_repository: nothing,
  downloadables: z.strictObject({ files: z.array(z.string()) }).meta({ id: "BenefitGrantDownloadablesProperties" }),
  license_keys: z.strictObject({ license_key_id: z.string(), display_key: z.string() }).meta({ id: "BenefitGrantLicenseKeysProperties" }),
  meter_credit: z
    .strictObject({ last_credited_meter_id: z.string().optional(), last_credited_units: z.int().optional(), last_credited_at: z.string().optional() })
    .meta({ id: "BenefitGrantMeterCreditProperties" }),
} satisfies Record<BenefitType, z.ZodType>;
export const grantProperties = z.union([BenefitGrantProperties.license_keys, BenefitGrantProperties.downloadables, BenefitGrantProperties.meter_credit, nothing]);

/** Why a benefit is not granted yet: what the customer must do first. */
const BenefitGrantError = z.strictObject({ message: z.string(), type: z.string(), timestamp: z.string() }).meta({ id: "BenefitGrantError" });

/** A grant's own fields, as both the seller and the customer see them. */
export const grantFields = {
  id: z.string(),
  created_at: isoTimestamp(),
  modified_at: isoTimestamp().nullable(),
  granted_at: isoTimestamp().nullable(),
  revoked_at: isoTimestamp().nullable(),
  is_granted: z.boolean(),
  is_revoked: z.boolean(),
  customer_id: z.string(),
  /** The seat member holding the grant; null for a grant to the customer as a whole. */
  member_id: z.string().nullable(),
  benefit_id: z.string(),
  subscription_id: z.string().nullable(),
  order_id: z.string().nullable(),
  error: BenefitGrantError.nullable(),
};


/** A benefit a customer holds now, as their state lists it. */
export const CustomerStateBenefitGrant = z
  .strictObject({
    id: z.string(),
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    granted_at: isoTimestamp(),
    benefit_id: z.string(),
    benefit_type: z.enum(BENEFIT_TYPES),
    benefit_metadata: metadataOutput,
    properties: grantProperties,
  })
  .meta({ id: "CustomerStateBenefitGrant" });

const description = z.string().min(3).max(42);
const common = { description, metadata: metadataInput.default({}), organization_id: z.string().nullish() };

export const BenefitCreate = z.discriminatedUnion("type", [
  z.object({ ...common, type: z.literal("custom"), properties: BENEFIT_PROPERTIES.custom }),
  z.object({ ...common, type: z.literal("discord"), properties: BENEFIT_PROPERTIES.discord }),
  z.object({ ...common, type: z.literal("github_repository"), properties: BENEFIT_PROPERTIES.github_repository }),
  z.object({ ...common, type: z.literal("downloadables"), properties: BENEFIT_PROPERTIES.downloadables }),
  z.object({ ...common, type: z.literal("license_keys"), properties: BENEFIT_PROPERTIES.license_keys }),
  z.object({ ...common, type: z.literal("meter_credit"), properties: BENEFIT_PROPERTIES.meter_credit }),
]);

/** A file a downloadables benefit hands out, with how it was downloaded through the benefit. */
const BenefitDownloadableFile = DownloadableFileRead.extend({
  downloaders: z.int().meta({ description: "Number of distinct customers who downloaded the file." }),
  downloads: z.int().meta({ description: "Total number of downloads for the file." }),
}).meta({ id: "BenefitDownloadableFile" });

export const BenefitDownloadableFileList = listResource(BenefitDownloadableFile, "ListResource_BenefitDownloadableFile_");

export const BenefitFileListQuery = z.object(paging);

/** A benefit keeps its type; its properties, when given, are checked against that type's. */
export const BenefitUpdate = z.object({
  type: z.enum(BENEFIT_TYPES),
  description: description.nullish(),
  metadata: metadataInput.optional(),
  properties: z.record(z.string(), z.unknown()).nullish(),
});

/** The properties a list of benefits may be sorted by. */
export const BENEFIT_SORT_KEYS = Object.keys(BENEFIT_SORTABLE) as (keyof typeof BENEFIT_SORTABLE)[];

export const BenefitListQuery = z.object({
  metadata: metadataQuery,
  ...paging,
  ...sellerFilter,
  type: repeated(z.enum(BENEFIT_TYPES)),
  id: repeated(z.string()),
  exclude_id: repeated(z.string()),
  query: z.string().optional(),
  sorting: sorting(BENEFIT_SORT_KEYS, "-created_at"),
});
