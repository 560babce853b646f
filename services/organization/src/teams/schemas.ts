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
