import type { MemberRow } from "../members/members.sql.js";
import { memberJson } from "../members/output.js";
import type { CustomerSeatRow } from "./customer-seats.sql.js";

/**
 * A seat as Polar's CustomerSeat shows it, with the member holding it. `customer_id` is the customer
 * who bought it (Polar's member model); the address is the seat's, else its member's.
 */
export const seatJson = (seat: CustomerSeatRow, member: MemberRow | null) => ({
  created_at: seat.created_at,
  modified_at: seat.modified_at,
  id: seat.id,
  subscription_id: seat.subscription_id,
  order_id: seat.order_id,
  status: seat.status,
  customer_id: seat.customer_id,
  member_id: seat.member_id,
  member: member ? memberJson(member) : null,
  email: seat.email,
  customer_email: seat.email ?? member?.email ?? null,
  invitation_token_expires_at: seat.invitation_token_expires_at,
  claimed_at: seat.claimed_at,
  revoked_at: seat.revoked_at,
  seat_metadata: seat.metadata,
});
