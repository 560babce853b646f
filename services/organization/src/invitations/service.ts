import { z } from "zod";
import { HttpError, type UnitOfWork } from "@tollgate/kit";
import { invitationAccepted, invitationCanceled, invitationCreated, invitationRejected, memberAdded, setActiveOrganization } from "@tollgate/proto";
import type { Caller } from "../caller.js";
import { orgError, type OrgErrorCode } from "../http/errors.js";
import { findCallerMember, organizationIdFor, requireMembership } from "../membership.js";
import { countMembers, findMember, findMemberByEmail, insertMember, type MemberRow } from "../members/members.sql.js";
import { memberEventData } from "../members/output.js";
import { findOrganizationById, type OrganizationRow } from "../organizations/organizations.sql.js";
import type { Parts } from "../parts.js";
import { CREATOR_ROLE, hasPermission, isOwner, roleList, roleText, unknownRoles } from "../roles/permissions.js";
import { addTeamMember, findTeam } from "../teams/teams.sql.js";
import { findUserById } from "../users/users.sql.js";
import {
  extendInvitation,
  findInvitation,
  insertInvitation,
  invitationsForEmail,
  listInvitations,
  pendingInvitations,
  transitionInvitation,
  type InvitationRow,
} from "./invitations.sql.js";
import { invitationEventData } from "./output.js";
import type { InvitationRequest } from "./schemas.js";

/**
 * Invitations go to an e-mail address, so only someone who has proven the address is theirs may see
 * or answer them: anyone can sign up with an address they do not own (by default nobody has to verify
 * it to sign in), and would otherwise join as whatever role was meant for its owner.
 */
function requireVerifiedAddress(caller: Caller, refusal: OrgErrorCode): void {
  if (!caller.user.email_verified) throw orgError(403, refusal);
}

/** An invitation the caller may see or answer: pending, unexpired, and addressed to their verified e-mail. */
async function addressedToCaller({ db }: Pick<Parts, "db">, invitationId: string, caller: Caller, unverified: OrgErrorCode): Promise<InvitationRow> {
  const invitation = await findInvitation(db, invitationId);
  if (!invitation || invitation.status !== "pending" || invitation.expires_at <= new Date()) throw orgError(400, "INVITATION_NOT_FOUND");
  if (invitation.email.toLowerCase() !== caller.user.email.toLowerCase()) throw orgError(403, "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION");
  requireVerifiedAddress(caller, unverified);
  return invitation;
}

/** Announces an invitation made or renewed, with what its mail says. */
function announceInvitation({ config }: Pick<Parts, "config">, unit: UnitOfWork, invitation: InvitationRow, organizationName: string, caller: Caller) {
  unit.announce(invitationCreated, {
    ...invitationEventData(invitation),
    organization_name: organizationName,
    role: invitation.role,
    team_id: invitation.team_id,
    inviter_id: caller.user_id,
    inviter_name: caller.user.name,
    inviter_email: caller.user.email,
    expires_at: invitation.expires_at.toISOString(),
    accept_url: `${config.PUBLIC_URL.replace(/\/$/, "")}/accept-invitation/${invitation.id}`,
  });
}

/** Invites an address to an organization, or renews the pending invitation when asked to resend it. */
export async function inviteMember(org: Parts, caller: Caller, body: z.output<typeof InvitationRequest>): Promise<InvitationRow> {
  const { config, db, units } = org;
  const expiry = () => new Date(Date.now() + config.INVITATION_EXPIRES_IN_SECONDS * 1000);
  const organizationId = organizationIdFor(caller, body.organizationId, "ORGANIZATION_NOT_FOUND");
  const email = body.email.toLowerCase();
  if (!z.email().safeParse(email).success) throw orgError(400, "INVALID_EMAIL");
  const inviter = await requireMembership(org, organizationId, caller);
  if (!hasPermission(inviter.role, { invitation: ["create"] })) throw orgError(403, "YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION");
  const roles = roleList(body.role);
  if (roles.length === 0) throw orgError(400, "ROLE_NOT_FOUND");
  const unknown = unknownRoles(roles);
  if (unknown.length > 0) throw new HttpError(400, "ROLE_NOT_FOUND", `ROLE_NOT_FOUND: ${unknown.join(", ")}`);
  if (roles.includes(CREATOR_ROLE) && !isOwner(inviter.role)) throw orgError(403, "YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE");
  if (await findMemberByEmail(db, organizationId, email)) throw orgError(400, "USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION");
  const organization = await findOrganizationById(db, organizationId);
  if (!organization) throw orgError(400, "ORGANIZATION_NOT_FOUND");

  const [existing] = await pendingInvitations(db, organizationId, email);
  if (existing) {
    if (!body.resend) throw orgError(400, "USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION");
    // Resending renews the invitation and its mail.
    return units.run(async (unit) => {
      const renewed = await extendInvitation(unit.db, existing.id, expiry());
      if (!renewed) throw orgError(400, "INVITATION_NOT_FOUND");
      announceInvitation(org, unit, renewed, organization.name, caller);
      return renewed;
    });
  }
  if ((await pendingInvitations(db, organizationId)).length >= config.INVITATION_LIMIT) throw orgError(403, "INVITATION_LIMIT_REACHED");
  const teamIds = body.teamId === undefined ? [] : Array.isArray(body.teamId) ? body.teamId : [body.teamId];
  for (const teamId of teamIds) if (!(await findTeam(db, organizationId, teamId))) throw orgError(400, "TEAM_NOT_FOUND");

  return units.run(async (unit) => {
    const invitation = await insertInvitation(unit.db, {
      organization_id: organizationId,
      email,
      role: roleText(roles),
      team_id: teamIds.length > 0 ? teamIds.join(",") : null,
      inviter_id: caller.user_id,
      expires_at: expiry(),
    });
    announceInvitation(org, unit, invitation, organization.name, caller);
    return invitation;
  });
}

/** Accepts an invitation: the caller joins the organization and its teams, and it becomes their session's active one. */
export async function acceptInvitation(org: Parts, caller: Caller, invitationId: string): Promise<{ accepted: InvitationRow; member: MemberRow }> {
  const { config, db, units } = org;
  const invitation = await addressedToCaller(org, invitationId, caller, "EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION");
  if (!(await findMember(db, invitation.organization_id, invitation.inviter_id))) throw orgError(400, "INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION");
  if ((await countMembers(db, invitation.organization_id)) >= config.MEMBERSHIP_LIMIT) throw orgError(403, "ORGANIZATION_MEMBERSHIP_LIMIT_REACHED");
  const teamIds = invitation.team_id ? invitation.team_id.split(",") : [];
  const answer = await units.run(async (unit) => {
    // Only one of concurrent accepts moves it from pending; the others find nothing to accept.
    const accepted = await transitionInvitation(unit.db, invitation.id, "pending", "accepted");
    if (!accepted) throw orgError(400, "INVITATION_NOT_FOUND");
    const member = await insertMember(unit.db, { organization_id: accepted.organization_id, user_id: caller.user_id, role: accepted.role });
    for (const teamId of teamIds) {
      if (!(await findTeam(unit.db, accepted.organization_id, teamId))) throw orgError(400, "TEAM_NOT_FOUND");
      await addTeamMember(unit.db, teamId, caller.user_id);
    }
    unit.announce(invitationAccepted, invitationEventData(accepted));
    unit.announce(memberAdded, memberEventData(member));
    return { accepted, member };
  });
  await org.request(setActiveOrganization, {
    session_id: caller.id,
    organization_id: answer.accepted.organization_id,
    ...(teamIds.length === 1 && { team_id: teamIds[0] }),
  });
  return answer;
}

/** The caller turns down an invitation addressed to them. */
export async function rejectInvitation(org: Parts, caller: Caller, invitationId: string): Promise<InvitationRow> {
  const invitation = await addressedToCaller(org, invitationId, caller, "EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION");
  return org.units.run(async (unit) => {
    const rejected = await transitionInvitation(unit.db, invitation.id, "pending", "rejected");
    if (!rejected) throw orgError(400, "INVITATION_NOT_FOUND");
    unit.announce(invitationRejected, invitationEventData(rejected));
    return rejected;
  });
}

/** A member who may cancel invitations withdraws a pending one. */
export async function cancelInvitation(org: Parts, caller: Caller, invitationId: string): Promise<InvitationRow> {
  const invitation = await findInvitation(org.db, invitationId);
  if (!invitation) throw orgError(400, "INVITATION_NOT_FOUND");
  const member = await requireMembership(org, invitation.organization_id, caller);
  if (!hasPermission(member.role, { invitation: ["cancel"] })) throw orgError(403, "YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION");
  return org.units.run(async (unit) => {
    const canceled = await transitionInvitation(unit.db, invitation.id, "pending", "canceled");
    if (!canceled) throw orgError(400, "INVITATION_NOT_FOUND");
    unit.announce(invitationCanceled, invitationEventData(canceled));
    return canceled;
  });
}

/** An invitation addressed to the caller, with its organization and the inviter's address, as they see it before answering. */
export async function invitationForRecipient(
  org: Parts,
  caller: Caller,
  invitationId: string,
): Promise<{ invitation: InvitationRow; organization: OrganizationRow; inviterEmail: string }> {
  const { db } = org;
  const invitation = await addressedToCaller(org, invitationId, caller, "EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION");
  const organization = await findOrganizationById(db, invitation.organization_id);
  if (!organization) throw orgError(400, "ORGANIZATION_NOT_FOUND");
  if (!(await findMember(db, invitation.organization_id, invitation.inviter_id))) throw orgError(400, "INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION");
  const inviter = await findUserById(db, invitation.inviter_id);
  return { invitation, organization, inviterEmail: inviter?.email ?? "" };
}

/**
 * An organization's invitations as a member sees them. Invitation ids work as invitation links: only
 * those who may invite see them, and owner invitations only owners.
 */
export async function invitationsVisibleTo({ db }: Pick<Parts, "db">, member: MemberRow): Promise<InvitationRow[]> {
  if (!hasPermission(member.role, { invitation: ["create"] })) return [];
  return (await listInvitations(db, member.organization_id)).filter((invitation) => isOwner(member.role) || !roleList(invitation.role).includes(CREATOR_ROLE));
}

/** An organization's invitations (the active one's by default), for a member who may invite. */
export async function organizationInvitations(org: Parts, caller: Caller, organizationId = caller.active_organization_id): Promise<InvitationRow[]> {
  if (!organizationId) throw new HttpError(400, "BAD_REQUEST", "Organization ID is required");
  const member = await findCallerMember(org, organizationId, caller);
  if (!member) throw new HttpError(403, "FORBIDDEN", "You are not a member of this organization");
  if (!hasPermission(member.role, { invitation: ["create"] })) throw orgError(403, "YOU_ARE_NOT_ALLOWED_TO_LIST_INVITATIONS");
  return invitationsVisibleTo(org, member);
}

/** The pending invitations addressed to the caller, each with its organization's name (null if it is gone). */
export async function receivedInvitations(org: Parts, caller: Caller, email: string | undefined): Promise<{ invitation: InvitationRow; organizationName: string | null }[]> {
  // Only one's own: a different address would let anyone read other people's invitations.
  if (email && email.toLowerCase() !== caller.user.email.toLowerCase()) throw orgError(403, "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION");
  requireVerifiedAddress(caller, "EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION");
  const invitations = await invitationsForEmail(org.db, caller.user.email);
  return Promise.all(
    invitations.map(async (invitation) => ({ invitation, organizationName: (await findOrganizationById(org.db, invitation.organization_id))?.name ?? null })),
  );
}
