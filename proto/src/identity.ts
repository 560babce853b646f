import { z } from "zod";

/**
 * The gateway resolves each caller once and forwards who it is as a short-lived signed token in
 * this header; services trust only that token and never parse cookies or API keys themselves.
 */
export const IDENTITY_HEADER = "x-tollgate-identity";
export const IDENTITY_ISSUER = "tollgate-gateway";
export const IDENTITY_AUDIENCE = "tollgate-services";
export const IDENTITY_TTL_SECONDS = 60;

export const IdentityClaims = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("anonymous") }),
  z.object({
    kind: z.literal("user"),
    user_id: z.string().min(1),
    session_id: z.string().min(1),
    /** Whether the user has two-factor authentication on; optional, as tokens signed before it was told leave it out (read: false). */
    two_factor: z.boolean().optional(),
  }),
  z.object({
    kind: z.literal("organization_token"),
    token_id: z.string().min(1),
    organization_id: z.string().min(1),
    scopes: z.array(z.string()),
  }),
  z.object({
    kind: z.literal("customer_session"),
    customer_id: z.string().min(1),
    organization_id: z.string().min(1),
    /** Which session: optional, as a gateway older than the portal's introspection did not pass it. */
    session_id: z.string().min(1).optional(),
    /** The member whose session it is, if it is one member's: they see what is theirs, not the whole customer's. */
    member_id: z.string().min(1).optional(),
  }),
  /** An API key (`x-api-key`) a user owns: it acts as that user, as better-auth's enableSessionForAPIKeys has it. */
  z.object({
    kind: z.literal("user_api_key"),
    key_id: z.string().min(1),
    user_id: z.string().min(1),
  }),
  /**
   * An API key an organization owns: it acts for its organization with the key's permissions, and is
   * nobody: no user, no session, no membership of its own.
   */
  z.object({
    kind: z.literal("organization_api_key"),
    key_id: z.string().min(1),
    organization_id: z.string().min(1),
    permissions: z.record(z.string(), z.array(z.string())).nullable(),
  }),
  z.object({
    kind: z.literal("checkout"),
    checkout_id: z.string().min(1),
    organization_id: z.string().min(1),
  }),
]);
export type IdentityClaims = z.infer<typeof IdentityClaims>;
