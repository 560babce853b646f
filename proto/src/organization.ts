import { z } from "zod";
import { defineEvent } from "./envelope.js";
import { defineRequest } from "./requests.js";

const id = z.string().min(1);
const organization = z.object({
  id,
  name: z.string(),
  slug: z.string(),
  /** Whether its members must have two-factor authentication to act for it; absent from events written before it was told (read: false). */
  require_two_factor: z.boolean().optional(),
});
const member = z.object({ id, organization_id: id, user_id: id, role: z.string() });
const team = z.object({ id, organization_id: id, name: z.string() });

export const organizationCreated = defineEvent("organization.created", organization);
export const organizationUpdated = defineEvent("organization.updated", organization);
export const organizationDeleted = defineEvent("organization.deleted", z.object({ id }));

/**
 * Creates an organization owned by the signed-in user who asked for it through Polar's API (billing
 * serves `POST /v1/organizations/`), leaving their session's active organization as it is. The
 * request carries the identity token the gateway signed for that user's request: a process that can
 * merely reach NATS cannot create organizations in anyone's name. Refusals come back with better-auth's
 * codes (ORGANIZATION_ALREADY_EXISTS, UNAUTHORIZED, …); organization.created follows as ever.
 */
export const createOrganizationForUser = defineRequest("organization.organization.create", {
  request: z.object({ identity: z.string().min(1), name: z.string().min(1), slug: z.string().min(1) }),
  /** What organization.created and member.added will say: the organization, and its owner. */
  response: z.object({ organization, owner: member }),
});

/**
 * Whether a user, as a member of an organization, holds permissions there (better-auth's access
 * control, which the organization service owns): how auth decides who may manage an organization's
 * API keys. `member` is false for someone outside it.
 */
export const checkOrganizationPermission = defineRequest("organization.permission.check", {
  request: z.object({ user_id: id, organization_id: id, permissions: z.record(z.string(), z.array(z.string())) }),
  response: z.object({ member: z.boolean(), allowed: z.boolean() }),
});

export const memberAdded = defineEvent("member.added", member);
export const memberUpdated = defineEvent("member.updated", member);
export const memberRemoved = defineEvent("member.removed", member);

/** Carries what the invitation mail needs, so the auth service can send it without asking. */
export const invitationCreated = defineEvent(
  "invitation.created",
  z.object({
    id,
    organization_id: id,
    organization_name: z.string(),
    email: z.email(),
    role: z.string(),
    team_id: id.nullable(),
    inviter_id: id,
    inviter_name: z.string(),
    inviter_email: z.email(),
    expires_at: z.iso.datetime({ offset: true }),
    accept_url: z.url(),
  }),
);
const invitationChange = z.object({ id, organization_id: id, email: z.email() });
export const invitationAccepted = defineEvent("invitation.accepted", invitationChange);
export const invitationRejected = defineEvent("invitation.rejected", invitationChange);
export const invitationCanceled = defineEvent("invitation.canceled", invitationChange);

export const teamCreated = defineEvent("team.created", team);
export const teamUpdated = defineEvent("team.updated", team);
export const teamDeleted = defineEvent("team.deleted", team);
