import { randomId, type Knex } from "@tollgate/kit";

export type InvitationStatus = "pending" | "accepted" | "rejected" | "canceled";

export interface InvitationRow {
  id: string;
  organization_id: string;
  email: string;
  role: string;
  status: InvitationStatus;
  team_id: string | null;
  inviter_id: string;
  expires_at: Date;
  created_at: Date;
}

export const findInvitation = (db: Knex, id: string) => db<InvitationRow>("invitations").where({ id }).first();

export const pendingInvitations = (db: Knex, organizationId: string, email?: string) => {
  const query = db<InvitationRow>("invitations").where({ organization_id: organizationId, status: "pending" }).where("expires_at", ">", new Date());
  if (email) void query.where({ email: email.toLowerCase() });
  return query.orderBy("created_at");
};

export const listInvitations = (db: Knex, organizationId: string) => db<InvitationRow>("invitations").where({ organization_id: organizationId }).orderBy("created_at");

export const invitationsForEmail = (db: Knex, email: string) =>
  db<InvitationRow>("invitations").where({ email: email.toLowerCase(), status: "pending" }).where("expires_at", ">", new Date()).orderBy("created_at");

export async function insertInvitation(db: Knex, invitation: Pick<InvitationRow, "organization_id" | "email" | "role" | "team_id" | "inviter_id" | "expires_at">): Promise<InvitationRow> {
  const [row] = await db<InvitationRow>("invitations").insert({ id: randomId(32), status: "pending", ...invitation, email: invitation.email.toLowerCase() }).returning("*");
  if (!row) throw new Error("insert into invitations returned no row");
  return row;
}

/**
 * Moves an invitation from one status to another, atomically: of two concurrent accepts only one
 * finds it still pending, so only one member is created.
 */
export async function transitionInvitation(db: Knex, id: string, from: InvitationStatus, to: InvitationStatus): Promise<InvitationRow | undefined> {
  const [row] = await db<InvitationRow>("invitations").where({ id, status: from }).update({ status: to }).returning("*");
  return row;
}

export async function extendInvitation(db: Knex, id: string, expiresAt: Date): Promise<InvitationRow | undefined> {
  const [row] = await db<InvitationRow>("invitations").where({ id }).update({ expires_at: expiresAt }).returning("*");
  return row;
}
