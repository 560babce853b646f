import { z } from "zod";
import { isoTimestamp } from "@tollgate/kit";

const Permissions = z.record(z.string(), z.array(z.string()));
const Metadata = z.record(z.string(), z.unknown());

/** Fields better-auth's api-key plugin lets only its server set: a client that sends them is refused, not ignored. */
const serverOnly = {
  refillAmount: z.number().min(1).optional(),
  refillInterval: z.number().optional(),
  rateLimitTimeWindow: z.number().optional(),
  rateLimitMax: z.number().optional(),
  rateLimitEnabled: z.boolean().optional(),
  permissions: Permissions.nullable().optional(),
};

export const ApiKeyCreation = z.object({
  configId: z.string().optional(),
  name: z.string().optional(),
  /** Seconds from now; null (or absent) for a key that never expires. */
  expiresIn: z.number().min(1).nullable().optional(),
  prefix: z
    .string()
    .regex(/^[a-zA-Z0-9_-]+$/, { message: "Invalid prefix format, must be alphanumeric and contain only underscores and hyphens." })
    .optional(),
  remaining: z.number().min(0).nullable().optional(),
  metadata: z.unknown().optional(),
  userId: z.coerce.string().optional(),
  organizationId: z.coerce.string().optional(),
  ...serverOnly,
});

export const ApiKeyChange = z.object({
  configId: z.string().optional(),
  keyId: z.string().min(1),
  userId: z.coerce.string().optional(),
  name: z.string().optional(),
  enabled: z.boolean().optional(),
  remaining: z.number().min(1).optional(),
  metadata: z.unknown().optional(),
  expiresIn: z.number().min(1).nullable().optional(),
  ...serverOnly,
});

export const ApiKeyDeletion = z.object({ configId: z.string().optional(), keyId: z.string().min(1) });

export const ApiKeyQuery = z.object({ configId: z.string().optional(), id: z.string().min(1) });

export const ApiKeyListQuery = z.object({
  configId: z.string().optional(),
  organizationId: z.string().optional(),
  limit: z.coerce.number().int().nonnegative().optional(),
  offset: z.coerce.number().int().nonnegative().optional(),
  sortBy: z.enum(["createdAt", "updatedAt", "name", "expiresAt", "lastRequest"]).optional(),
  sortDirection: z.enum(["asc", "desc"]).optional(),
});

/** better-auth's api-key record as its endpoints answer it: never the key, only its first characters. */
export const ApiKey = z
  .strictObject({
    id: z.string(),
    configId: z.string(),
    name: z.string().nullable(),
    start: z.string().nullable(),
    prefix: z.string().nullable(),
    referenceId: z.string(),
    enabled: z.boolean(),
    expiresAt: isoTimestamp().nullable(),
    remaining: z.number().nullable(),
    refillAmount: z.number().nullable(),
    refillInterval: z.number().nullable(),
    lastRefillAt: isoTimestamp().nullable(),
    rateLimitEnabled: z.boolean(),
    rateLimitTimeWindow: z.number().nullable(),
    rateLimitMax: z.number().nullable(),
    requestCount: z.number(),
    lastRequest: isoTimestamp().nullable(),
    permissions: Permissions.nullable(),
    metadata: Metadata.nullable(),
    createdAt: isoTimestamp(),
    updatedAt: isoTimestamp(),
  })
  .meta({ id: "ApiKey" });

/** The answer to create: the record with the key itself, shown this once. */
export const CreatedApiKey = ApiKey.extend({ key: z.string() }).meta({ id: "CreatedApiKey" });

export const ApiKeyList = z.strictObject({
  apiKeys: z.array(ApiKey),
  total: z.number(),
  limit: z.number().optional(),
  offset: z.number().optional(),
});

export const ExpiredKeysDeletion = z.strictObject({ success: z.boolean(), error: z.null() });
