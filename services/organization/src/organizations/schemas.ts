import { z } from "zod";
import { isoTimestamp } from "@tollgate/kit";
import { Invitation } from "../invitations/schemas.js";
import { Member, MemberWithUser } from "../members/schemas.js";
import { Team } from "../teams/schemas.js";

/** better-auth's Organization. */
export const Organization = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    logo: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    /** Tollgate's own field: its members must have two-factor authentication to act for it. */
    requireTwoFactor: z.boolean(),
    createdAt: isoTimestamp(),
  })
  .meta({ id: "Organization" });

/** A new organization with its one member, the creator. */
export const CreatedOrganization = Organization.extend({ members: z.array(Member) });

/** An organization with its members, the invitations the caller may see, and its teams. */
export const FullOrganization = Organization.extend({ members: z.array(MemberWithUser), invitations: z.array(Invitation), teams: z.array(Team) });

/** check-slug's answer when the slug is free; a taken one is refused with an error. */
export const SlugFree = z.strictObject({ status: z.boolean() });

/** An organization named by id or slug; neither means the session's active one. */
export const OrganizationQuery = z.object({ organizationId: z.string().optional(), organizationSlug: z.string().optional() });

export const FullOrganizationQuery = OrganizationQuery.extend({ membersLimit: z.coerce.number().int().positive().optional() });

export const OrganizationCreate = z.object({
  name: z.string().min(1),
  slug: z.string().min(1),
  userId: z.coerce.string().optional(),
  logo: z.string().nullish(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  keepCurrentActiveOrganization: z.boolean().optional(),
});

export const SlugQuestion = z.object({ slug: z.string() });

export const OrganizationUpdate = z.object({
  data: z
    .object({
      name: z.string().min(1).optional(),
      slug: z.string().min(1).optional(),
      logo: z.string().nullish(),
      metadata: z.record(z.string(), z.unknown()).optional(),
      /** Tollgate's own field, sent as better-auth's client sends an organization's additional fields; owners only. */
      requireTwoFactor: z.boolean().optional(),
    })
    .partial(),
  organizationId: z.string().optional(),
});

export const OrganizationIdBody = z.object({ organizationId: z.string() });

/** The organization to make active: by id or slug, or null to clear it. */
export const ActiveOrganizationChoice = z.object({ organizationId: z.string().nullable().optional(), organizationSlug: z.string().optional() });
