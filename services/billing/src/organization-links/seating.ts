import type { UnitOfWork } from "@tollgate/kit";
import type { CustomerRow } from "../customers/service.js";
import { freeSeatsOf, giveSeatIn, lockPurchase, lockSeat, revokeSeatIn, seatedPurchasesOf } from "../customer-seats/service.js";

/**
 * A seat for someone who joined the linked organization: of the customer's seat-based purchases
 * (oldest first), the first with a seat left, claimed at once — they joined the buyer's own
 * organization, so there is nobody to invite. Each purchase is locked before its seats are counted,
 * as every assignment does. None left: why, in words for the team's owner.
 */
export async function seatLinkedMember(unit: UnitOfWork, customer: CustomerRow, email: string): Promise<{ seatId: string } | { refusal: string }> {
  const purchases = await seatedPurchasesOf(unit.db, customer.id);
  if (purchases.length === 0) return { refusal: "The team has no seat-based subscription or order to take a seat from." };
  let bought = 0;
  for (const candidate of purchases) {
    const purchase = await lockPurchase(unit.db, candidate);
    bought += purchase.seats ?? 0;
    if ((await freeSeatsOf(unit.db, purchase)) > 0) {
      const { seat } = await giveSeatIn(unit, purchase, { email }, { metadata: {}, invite: null });
      return { seatId: seat.id };
    }
  }
  return { refusal: `No seat is left: all ${bought} seats are taken.` };
}

/** Gives back the seat someone held through the link (their grants revoked with it); one revoked some other way stays as it is. */
export async function releaseLinkedSeat(unit: UnitOfWork, seatId: string): Promise<void> {
  const seat = await lockSeat(unit.db, seatId);
  if (seat && seat.status !== "revoked") await revokeSeatIn(unit, seat);
}
