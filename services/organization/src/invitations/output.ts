import type { InvitationRow } from "./invitations.sql.js";

export const invitationJson = (invitation: InvitationRow) => ({
  id: invitation.id,
  organizationId: invitation.organization_id,
  email: invitation.email,
  role: invitation.role,
  status: invitation.status,
  teamId: invitation.team_id,
  inviterId: invitation.inviter_id,
  expiresAt: invitation.expires_at,
  createdAt: invitation.created_at,
});

export const invitationEventData = (invitation: InvitationRow) => ({ id: invitation.id, organization_id: invitation.organization_id, email: invitation.email });
