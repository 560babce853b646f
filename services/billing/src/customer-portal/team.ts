import { notPermitted, type Knex } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { findSession } from "../customer-sessions/customer-sessions.sql.js";
import { customerOf } from "../customer-sessions/service.js";
import { memberOfCustomer, type MemberRow } from "../members/service.js";

/** The member whose portal session the caller's is (a seat's, once claimed); null for a session of the customer as a whole. */
export async function sessionMember(db: Knex, identity: IdentityClaims): Promise<MemberRow | null> {
  const { session_id: sessionId, customer_id: customerId } = customerOf(identity);
  const session = sessionId ? await findSession(db, sessionId) : undefined;
  return session?.member_id ? memberOfCustomer(db, customerId, session.member_id) : null;
}

/**
 * The customer whose team the caller manages: a session of the customer as a whole always may (as
 * Polar lets a customer), a member's only as its owner or a billing manager.
 */
export async function billingManagerOf(db: Knex, identity: IdentityClaims): Promise<{ customer_id: string; member: MemberRow | null }> {
  const member = await sessionMember(db, identity);
  if (member && member.role === "member") throw notPermitted("Only owners and billing managers can access billing features.");
  return { customer_id: customerOf(identity).customer_id, member };
}
