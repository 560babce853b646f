import { z } from "zod";
import { isoTimestamp } from "@tollgate/kit";
import { Member } from "../members/schemas.js";

/** better-auth's Invitation. */
export const Invitation = z
  .strictObject({
    id: z.string(),
    organizationId: z.string(),
    email: z.string(),
    role: z.string(),
    status: z.enum(["pending", "accepted", "rejected", "canceled"]),
    teamId: z.string().nullable().meta({ description: "The teams joined on accepting, comma-separated" }),
    inviterId: z.string(),
    expiresAt: isoTimestamp(),
    createdAt: isoTimestamp(),
  })
  .meta({ id: "Invitation" });

/** An invitation answered: accepted, with the member it made, or rejected. */
export const InvitationAnswer = z.strictObject({ invitation: Invitation, member: Member.nullable() });

/** An invitation as its recipient sees it before answering. */
export const InvitationDetails = Invitation.extend({ organizationName: z.string(), organizationSlug: z.string(), inviterEmail: z.string() });

/** An invitation among the caller's own, with the organization it is to. */
export const ReceivedInvitation = Invitation.extend({
  // better-auth 1.7 names the organization; null only if it is gone.
  organizationName: z.string().nullable(),
});

export const InvitationRequest = z.object({
  email: z.string(),
  role: z.union([z.string(), z.array(z.string())]),
  organizationId: z.string().optional(),
  resend: z.boolean().optional(),
  teamId: z.union([z.string(), z.array(z.string())]).optional(),
});

/** An invitation named in a request body. */
export const InvitationIdBody = z.object({ invitationId: z.string() });

export const InvitationIdQuery = z.object({ id: z.string() });

export const InvitationListQuery = z.object({ organizationId: z.string().optional() });

export const ReceivedInvitationQuery = z.object({ email: z.string().optional() });
