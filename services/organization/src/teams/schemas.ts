import { z } from "zod";
import { isoTimestamp } from "@tollgate/kit";

/** better-auth's Team. */
export const Team = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    organizationId: z.string(),
    createdAt: isoTimestamp(),
    updatedAt: isoTimestamp().nullable().meta({ description: "Null until the team is first changed" }),
  })
  .meta({ id: "Team" });

/** better-auth's TeamMember: a user's membership of a team. */
export const TeamMember = z
  .strictObject({
    id: z.string(),
    teamId: z.string(),
    userId: z.string(),
    createdAt: isoTimestamp(),
  })
  .meta({ id: "TeamMember" });

/** What removing a team, or someone from one, answers. */
export const TeamRemoval = z.strictObject({ message: z.string() });

export const TeamCreate = z.object({ name: z.string().min(1), organizationId: z.string().optional() });

export const TeamRemovalRequest = z.object({ teamId: z.string(), organizationId: z.string().optional() });

export const TeamUpdate = z.object({ teamId: z.string(), data: z.object({ name: z.string().min(1).optional(), organizationId: z.string().optional() }) });

export const TeamListQuery = z.object({ organizationId: z.string().optional() });

/** The team to make active, or null to clear it. */
export const ActiveTeamChoice = z.object({ teamId: z.string().nullable().optional() });

export const TeamMemberQuery = z.object({ teamId: z.string().optional() });

/** A user put into or taken out of a team. */
export const TeamMembership = z.object({ teamId: z.string(), userId: z.coerce.string(), organizationId: z.string().optional() });
