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
    createdAt: isoTimestamp(),
  })
  .meta({ id: "Organization" });

/** A new organization with its one member, the creator. */
export const CreatedOrganization = Organization.extend({ members: z.array(Member) });

/** An organization with its members, the invitations the caller may see, and its teams. */
export const FullOrganization = Organization.extend({ members: z.array(MemberWithUser), invitations: z.array(Invitation), teams: z.array(Team) });

/** check-slug's answer when the slug is free; a taken one is refused with an error. */
export const SlugFree = z.strictObject({ status: z.boolean() });
