import { HttpError, type Knex, type UnitOfWork } from "@tollgate/kit";
import { findCustomer, findCustomerByExternalId, type CustomerRow } from "../customers/customers.sql.js";
import { membersWithIds, type MemberRow } from "../members/members.sql.js";
import { findOrAddMember, memberOfCustomer } from "../members/service.js";
import type { CustomerSeatRow } from "./customer-seats.sql.js";

/** Whom a seat is given to, as Polar's SeatAssign names them (the combinations checked by its schema). */
export interface SeatRecipient {
  email?: string | null | undefined;
  customer_id?: string | null | undefined;
  external_customer_id?: string | null | undefined;
  member_id?: string | null | undefined;
  external_member_id?: string | null | undefined;
}

/** Polar's InvalidSeatAssignmentRequest. */
const invalidRequest = (detail: string) => new HttpError(400, "InvalidSeatAssignmentRequest", detail);

/**
 * The member of the buying customer a seat goes to (Polar's member model): named by id, or by
 * external id and address (members' `findOrAddMember`: linked, checked or made). A customer of the
 * seller named instead stands for their address.
 */
export async function recipientMember(unit: UnitOfWork, buyer: CustomerRow, recipient: SeatRecipient): Promise<MemberRow> {
  if (recipient.member_id) {
    const member = await memberOfCustomer(unit.db, buyer.id, recipient.member_id);
    if (!member) throw new HttpError(404, "MemberNotFound", `Member not found: ${recipient.member_id}`);
    return member;
  }
  const email = recipient.email ?? (await addressOfCustomerNamed(unit.db, buyer, recipient));
  if (recipient.external_member_id) return findOrAddMember(unit, buyer, { email, external_id: recipient.external_member_id });
  if (!email) throw invalidRequest("At least one of email, external_member_id, or member_id must be provided when member_model_enabled is true.");
  return findOrAddMember(unit, buyer, { email });
}

/** The address of the customer a request named by id or external id, as Polar reads it (another customer of the seller). */
async function addressOfCustomerNamed(db: Knex, buyer: CustomerRow, recipient: SeatRecipient): Promise<string | null> {
  if (!recipient.customer_id && !recipient.external_customer_id) return null;
  const customer = recipient.customer_id ? await findCustomer(db, recipient.customer_id) : await findCustomerByExternalId(db, [buyer.organization_id], recipient.external_customer_id ?? "");
  if (!customer || customer.organization_id !== buyer.organization_id) throw invalidRequest("Customer not found for the provided customer_id or external_customer_id.");
  return customer.email;
}

/** The members holding (or invited to) the seats given, read at once: a seat's, or none. */
export async function seatHolders(db: Knex, seats: CustomerSeatRow[]): Promise<(seat: CustomerSeatRow) => MemberRow | null> {
  const ids = [...new Set(seats.flatMap((seat) => (seat.member_id ? [seat.member_id] : [])))];
  const members = new Map((ids.length > 0 ? await membersWithIds(db, ids) : []).map((member) => [member.id, member]));
  return (seat) => (seat.member_id ? (members.get(seat.member_id) ?? null) : null);
}
