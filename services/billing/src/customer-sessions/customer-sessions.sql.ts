import type { Knex } from "@tollgate/kit";

export interface CustomerSessionRow {
  id: string;
  token_hash: string;
  organization_id: string;
  customer_id: string;
  /** The member whose session it is (they see what is theirs); none for the customer's own (the whole customer). */
  member_id: string | null;
  return_url: string | null;
  expires_at: Date;
  created_at: Date;
  modified_at: Date | null;
}

const customerSessions = (db: Knex) => db<CustomerSessionRow>("customer_sessions");

/** The live session a token digest belongs to, if any (the gateway asks, through billing's responder). */
export const liveSession = (db: Knex, tokenHash: string) => customerSessions(db).where({ token_hash: tokenHash }).where("expires_at", ">", new Date()).first();

export async function insertCustomerSession(db: Knex, session: Omit<CustomerSessionRow, "created_at" | "modified_at">): Promise<CustomerSessionRow> {
  const [row] = await customerSessions(db).insert(session).returning("*");
  if (!row) throw new Error("insert into customer_sessions returned no row");
  return row;
}

/** Deletes every session of a customer; the ones deleted. */
export const deleteCustomerSessions = (db: Knex, customerId: string): Promise<Pick<CustomerSessionRow, "id" | "token_hash">[]> =>
  customerSessions(db).where({ customer_id: customerId }).delete().returning(["id", "token_hash"]);

/** Deletes every session of a member; the ones deleted. */
export const deleteMemberSessions = (db: Knex, memberId: string): Promise<Pick<CustomerSessionRow, "id" | "token_hash">[]> =>
  customerSessions(db).where({ member_id: memberId }).delete().returning(["id", "token_hash"]);

export const findSession = (db: Knex, id: string) => customerSessions(db).where({ id }).first();

export interface SessionCodeRow {
  id: string;
  code_hash: string;
  organization_id: string;
  customer_id: string;
  /** The team member the code opens a session of; null for the customer's own. */
  member_id: string | null;
  expires_at: Date;
  created_at: Date;
}

const sessionCodes = (db: Knex) => db<SessionCodeRow>("customer_session_codes");

/** Gives the customer (or one member of theirs) a new sign-in code, forgetting any earlier one: only the code in their latest mail works. */
export async function replaceSessionCode(db: Knex, code: Omit<SessionCodeRow, "created_at">): Promise<void> {
  await sessionCodes(db).where({ customer_id: code.customer_id, member_id: code.member_id }).delete();
  await sessionCodes(db).insert(code);
}

/** Uses up a live code: it is deleted as it is read, so two requests with one code never both get it. */
export async function takeSessionCode(db: Knex, codeHash: string): Promise<SessionCodeRow | undefined> {
  const [taken] = await sessionCodes(db).where({ code_hash: codeHash }).where("expires_at", ">", new Date()).delete().returning("*");
  return taken;
}

export interface EmailVerificationRow {
  id: string;
  token_hash: string;
  /** The address the customer asked to use, where the link went. */
  email: string;
  organization_id: string;
  customer_id: string;
  expires_at: Date;
  created_at: Date;
}

const emailVerifications = (db: Knex) => db<EmailVerificationRow>("customer_email_verifications");

/** The customer's new pending address, forgetting any earlier one: only the link in their latest mail works. */
export async function replaceEmailVerification(db: Knex, verification: Omit<EmailVerificationRow, "created_at">): Promise<void> {
  await emailVerifications(db).where({ customer_id: verification.customer_id }).delete();
  await emailVerifications(db).insert(verification);
}

/** The pending address a token digest stands for, while it lasts. */
export const liveEmailVerification = (db: Knex, tokenHash: string) => emailVerifications(db).where({ token_hash: tokenHash }).where("expires_at", ">", new Date()).first();

/** Uses up a live token: deleted as it is read, so two requests with one token never both get it. */
export async function takeEmailVerification(db: Knex, tokenHash: string): Promise<EmailVerificationRow | undefined> {
  const [taken] = await emailVerifications(db).where({ token_hash: tokenHash }).where("expires_at", ">", new Date()).delete().returning("*");
  return taken;
}
