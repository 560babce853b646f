import type { Knex } from "@tollgate/kit";

export interface CustomerSessionRow {
  id: string;
  token_hash: string;
  organization_id: string;
  customer_id: string;
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
