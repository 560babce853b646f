import { pgInteger } from "@tollgate/kit";
import { z } from "zod";

/** A license key's lifetime: `ttl` units of `timeframe`. */
// A key that lasts past 9999 of its units is one that never expires: leave `expires` out.
const expires = z.object({ ttl: z.int().min(1).max(9_999), timeframe: z.enum(["year", "month", "day"]) });

/**
 * What each type of benefit is configured with, as Polar takes it. Discord's guild is named by the
 * guild token Polar's bot installation gives; a self-hosted seller may give the guild id instead.
 */
export const BENEFIT_PROPERTIES = {
  custom: z.object({ note: z.string().nullish() }),
  discord: z
    .object({ guild_token: z.string().min(1).optional(), guild_id: z.string().min(1).optional(), role_id: z.string().min(1), kick_member: z.boolean().default(false) })
    .refine((properties) => properties.guild_token || properties.guild_id, { error: "guild_token (or guild_id) is required", path: ["guild_token"] }),
  github_repository: z.object({
    repository_owner: z.string().min(1),
    repository_name: z.string().min(1),
    permission: z.enum(["pull", "triage", "push", "maintain", "admin"]),
  }),
  downloadables: z.object({ files: z.array(z.string()).min(1), archived: z.record(z.string(), z.boolean()).default({}) }),
  license_keys: z.object({
    prefix: z.string().max(32).nullish(),
    expires: expires.nullish(),
    activations: z.object({ limit: z.int().min(1).max(50), enable_customer_admin: z.boolean() }).nullish(),
    limit_usage: pgInteger().min(1).nullish(),
  }),
  meter_credit: z.object({ units: pgInteger().min(1), rollover: z.boolean(), meter_id: z.string().min(1) }),
} as const;

export type BenefitType = keyof typeof BENEFIT_PROPERTIES;
export const BENEFIT_TYPES = Object.keys(BENEFIT_PROPERTIES) as BenefitType[];

/** Properties as they are stored and shown: every field present, nullable ones as null. */
export function storedProperties(type: BenefitType, input: Record<string, unknown>): Record<string, unknown> {
  switch (type) {
    case "custom":
      return { note: input.note ?? null };
    case "discord":
      return { guild_id: input.guild_id ?? input.guild_token, guild_token: input.guild_token ?? input.guild_id, role_id: input.role_id, kick_member: input.kick_member };
    case "license_keys":
      return { prefix: input.prefix ?? null, expires: input.expires ?? null, activations: input.activations ?? null, limit_usage: input.limit_usage ?? null };
    default:
      return input;
  }
}

/** The files a downloadables benefit hands out: all it names but those the seller archived, in its order. */
export function activeFiles(properties: Record<string, unknown>): string[] {
  const archived = (properties.archived ?? {}) as Record<string, boolean>;
  return ((properties.files ?? []) as string[]).filter((file) => !archived[file]);
}

/**
 * What a customer who holds the benefit is shown of its configuration: never the seller's secrets
 * (Discord's guild token and role) or a GitHub permission, and of downloadables only the files
 * that are not archived.
 */
export function subscriberProperties(type: BenefitType, properties: Record<string, unknown>): Record<string, unknown> {
  switch (type) {
    case "custom":
      return { note: properties.note ?? null };
    case "discord":
      return { guild_id: properties.guild_id };
    case "github_repository":
      return { repository_owner: properties.repository_owner, repository_name: properties.repository_name };
    case "downloadables":
      return { active_files: activeFiles(properties) };
    case "license_keys":
    case "meter_credit":
      return properties;
  }
}
