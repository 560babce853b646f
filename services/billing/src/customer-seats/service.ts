import { HttpError, notFound, polarErrors, randomId, type Knex, type UnitOfWork } from "@tollgate/kit";
import { grantSeat, revokeBenefits } from "../benefit-grants/granting.js";
import { findCustomer, type CustomerRow } from "../customers/customers.sql.js";
import { openMemberSession } from "../customer-sessions/service.js";
import { announceBilling } from "../events.js";
import { membersWithIds, type MemberRow } from "../members/members.sql.js";
import { findSeller, type SellerRow } from "../organizations/organizations.sql.js";
import type { Parts } from "../parts.js";
import { productsWithParts } from "../products/service.js";
import type { ProductWithParts } from "../products/products.sql.js";
import { sellerClock } from "../test-clock/clock.js";
import { claimedMemberIdsOf, countLiveSeats, findSeat, insertSeat, liveSeatsOf, liveSeatsOfMember, liveSeatWithEmail, lockSeat, lockSeatByTokenHash, revokedSeatOf, seatByTokenHash, seatsOf, sourceOfSeat, updateSeat, type CustomerSeatRow, type SeatSource } from "./customer-seats.sql.js";
import { invitationDigest, mailInvitation, newInvitation } from "./invitations.js";
import { seatJson } from "./output.js";
import { lockPurchase, namedPurchase, purchaseOfSeat, type PurchaseNamed, type PurchaseReader, type SeatedPurchase } from "./purchases.js";
import { recipientMember, seatHolders, type SeatRecipient } from "./recipients.js";
import type { SeatAssign } from "./schemas.js";

export { claimedSubscriptionIdsOf, countLiveSeats, customersSeat, lockSeat } from "./customer-seats.sql.js";
export { lockPurchase, namedPurchase, seatedPurchasesOf, type PurchaseReader, type SeatedPurchase } from "./purchases.js";

/** Polar's SeatNotAvailable. */
const noSeatAvailable = (purchase: SeatedPurchase, reason?: string) => new HttpError(400, "SeatNotAvailable", reason ?? `No available seats for ${purchase.id}`);
/** Polar's InvalidInvitationToken: whatever is wrong with a token, it is said the same way. */
const invalidToken = () => new HttpError(400, "InvalidInvitationToken", "Invalid or expired invitation token");

/**
 * What a seat-based purchase granting anew (a subscription moved to another plan, or resumed) grants
 * by: the seats it bought and the members of those claimed; a purchase without seats grants its customer.
 */
export async function seatHoldings(db: Knex, source: SeatSource, seats: number | null): Promise<{ seats: number | null; seatMembers?: MemberRow[] }> {
  if (seats === null) return { seats };
  const ids = await claimedMemberIdsOf(db, source);
  return { seats, seatMembers: ids.length > 0 ? await membersWithIds(db, ids) : [] };
}

/** The purchase's seats as Polar's SeatsList: each with its member, how many are left, and how many were bought. */
export async function seatsListOf(db: Knex, purchase: SeatedPurchase) {
  const seats = await seatsOf(db, purchase.source);
  const members = await seatHolders(db, seats);
  const taken = seats.filter((seat) => seat.status !== "revoked").length;
  return {
    seats: seats.map((seat) => seatJson(seat, members(seat))),
    available_seats: Math.max(0, (purchase.seats ?? 0) - taken),
    total_seats: purchase.seats ?? 0,
  };
}

/** What the seat's events and mail need: the seller, the customer who bought it, and what they bought. */
async function contextOf(db: Knex, purchase: SeatedPurchase): Promise<{ seller: SellerRow; buyer: CustomerRow; product: ProductWithParts }> {
  const [seller, buyer, [product]] = await Promise.all([findSeller(db, purchase.organization_id), findCustomer(db, purchase.customer_id), productsWithParts(db, purchase.product_id ? [purchase.product_id] : [])]);
  if (!seller || !buyer || !product) throw noSeatAvailable(purchase, "Container has no associated product");
  return { seller, buyer, product };
}

/** Announces a seat event (customer_seat.*) with the seat as Polar's payload shows it. */
function announceSeat(unit: UnitOfWork, type: "customer_seat.assigned" | "customer_seat.claimed" | "customer_seat.revoked", seat: CustomerSeatRow, member: MemberRow | null): void {
  announceBilling(unit, type, seat.organization_id, seatJson(seat, member));
}

/**
 * Gives one of a purchase's seats to someone, in one unit: never more seats taken (pending or
 * claimed) than the purchase bought. The purchase's row is locked before its seats are counted and
 * stays locked until the seat is written and committed, so assignments (and a change to the seats
 * bought) go one at a time and each counts the seats the one before it took; counted unlocked, twenty
 * at once would each see the last seat free.
 */
export async function assignSeat(parts: Pick<Parts, "units" | "config">, reader: PurchaseReader, request: SeatAssign & PurchaseNamed) {
  return parts.units.run(async (unit) => {
    const named = await namedPurchase(unit.db, reader, request);
    if (!named.paid) throw noSeatAvailable(named, "Order must be paid before assigning seats");
    const purchase = await lockPurchase(unit.db, named);
    const { seat, member } = await giveSeatIn(unit, purchase, request, { metadata: request.metadata ?? {}, invite: request.immediate_claim ? null : { publicUrl: parts.config.PUBLIC_URL } });
    return seatJson(seat, member);
  });
}

/** The seats a purchase has left to give. */
export const freeSeatsOf = async (db: Knex, purchase: SeatedPurchase): Promise<number> => Math.max(0, (purchase.seats ?? 0) - (await countLiveSeats(db, purchase.source)));

/**
 * Gives a seat of a purchase the caller has locked (lockPurchase) to a member of the customer who
 * bought it (made for an address not yet theirs); a member holds one live seat per purchase. With
 * `invite`, the member is mailed a claim link; without, the seat is claimed at once and its member
 * granted the purchase's benefits.
 */
export async function giveSeatIn(
  unit: UnitOfWork,
  purchase: SeatedPurchase,
  recipient: SeatRecipient,
  options: { metadata: CustomerSeatRow["metadata"]; invite: { publicUrl: string } | null },
): Promise<{ seat: CustomerSeatRow; member: MemberRow }> {
  if ((await freeSeatsOf(unit.db, purchase)) <= 0) throw noSeatAvailable(purchase);
  const { seller, buyer, product } = await contextOf(unit.db, purchase);
  const member = await recipientMember(unit, buyer, recipient);
  if (await liveSeatWithEmail(unit.db, purchase.source, member.email)) throw new HttpError(400, "SeatAlreadyAssigned", `Seat already assigned to customer ${member.email}`);
  const now = sellerClock(seller);
  const invitation = options.invite ? newInvitation(now) : null;
  const values = {
    member_id: member.id,
    email: member.email,
    status: invitation ? ("pending" as const) : ("claimed" as const),
    invitation_token_hash: invitation?.hash ?? null,
    invitation_token_expires_at: invitation?.expiresAt ?? null,
    claimed_at: invitation ? null : now,
    revoked_at: null,
    metadata: options.metadata,
  };
  // A seat given back is given again, as Polar's, rather than adding rows past the seats bought.
  const reused = await revokedSeatOf(unit.db, purchase.source);
  const seat = reused
    ? await updateSeat(unit.db, reused.id, values)
    : await insertSeat(unit.db, { id: randomId(32), organization_id: purchase.organization_id, subscription_id: purchase.source.subscription_id ?? null, order_id: purchase.source.order_id ?? null, customer_id: purchase.customer_id, ...values });
  if (invitation && options.invite) {
    mailInvitation(unit, options.invite.publicUrl, { email: member.email, seller, buyer, product: product.name, token: invitation.token });
    announceSeat(unit, "customer_seat.assigned", seat, member);
  } else {
    await grantSeat(unit, { customer: buyer, benefits: product.benefits, source: purchase.source, now }, member);
    announceSeat(unit, "customer_seat.claimed", seat, member);
  }
  return { seat, member };
}

/** What a claim link shows before it is used; nothing changes, so a mail scanner opening it claims nothing. */
export async function claimInfo(db: Knex, token: string) {
  const seat = await seatByTokenHash(db, invitationDigest(token));
  const purchase = seat ? await purchaseOfSeat(db, sourceOfSeat(seat)) : null;
  const context = purchase ? await contextOf(db, purchase) : null;
  if (!seat || !context || !claimable(seat, sellerClock(context.seller))) throw new HttpError(404, polarErrors.codes.not_found, "Invalid or expired invitation token");
  return {
    product_name: context.product.name,
    product_id: context.product.id,
    organization_name: context.seller.name,
    organization_slug: context.seller.slug,
    customer_email: seat.email ?? "",
    can_claim: seat.status === "pending",
  };
}

/** Whether a seat's invitation can still be used: pending, and its link not expired by the seller's clock. */
const claimable = (seat: CustomerSeatRow, now: Date) => seat.status === "pending" && seat.invitation_token_expires_at !== null && seat.invitation_token_expires_at > now;

/**
 * Claims the seat a link's token names, once: the seat is locked as it is read, and the token is
 * forgotten as it is claimed, so of twenty claims at once one finds it and the others find nothing.
 * The member is granted the purchase's benefits and a portal session of their own.
 */
export async function claimSeat(parts: Pick<Parts, "units">, token: string) {
  return parts.units.run(async (unit) => {
    const locked = await lockSeatByTokenHash(unit.db, invitationDigest(token));
    if (!locked || !locked.member_id) throw invalidToken();
    const purchase = await purchaseOfSeat(unit.db, sourceOfSeat(locked));
    const { seller, buyer, product } = await contextOf(unit.db, purchase);
    const now = sellerClock(seller);
    if (!claimable(locked, now)) throw invalidToken();
    const member = (await seatHolders(unit.db, [locked]))(locked);
    if (!member) throw invalidToken();
    const seat = await updateSeat(unit.db, locked.id, { status: "claimed", claimed_at: now, invitation_token_hash: null });
    await grantSeat(unit, { customer: buyer, benefits: product.benefits, source: purchase.source, now }, member);
    announceSeat(unit, "customer_seat.claimed", seat, member);
    return { seat: seatJson(seat, member), customer_session_token: (await openMemberSession(unit.db, buyer, member)).token };
  });
}

/** Takes a seat back in `unit`: its member's grants of the purchase are revoked, and the seat is free again. Revoked already, it stays as it is. */
export async function revokeSeatIn(unit: UnitOfWork, seat: CustomerSeatRow): Promise<CustomerSeatRow> {
  if (seat.status === "revoked") return seat;
  const member = (await seatHolders(unit.db, [seat]))(seat);
  const purchase = await purchaseOfSeat(unit.db, sourceOfSeat(seat));
  const seller = await findSeller(unit.db, purchase.organization_id);
  const now = seller ? sellerClock(seller) : new Date();
  if (member) await revokeBenefits(unit, purchase.source, now, member);
  // As Polar's: the seat forgets whom it was for, and its link stops working.
  const revoked = await updateSeat(unit.db, seat.id, { status: "revoked", revoked_at: now, invitation_token_hash: null, member_id: null, email: null });
  announceSeat(unit, "customer_seat.revoked", revoked, null);
  return revoked;
}

/** Takes a seat back (see `revokeSeatIn`), the seat locked so a claim of it at the same time goes first or finds it revoked. */
export async function revokeSeat(parts: Pick<Parts, "units">, seat: CustomerSeatRow) {
  return parts.units.run(async (unit) => {
    const locked = await lockSeat(unit.db, seat.id);
    if (!locked) throw notFound("Seat");
    return seatJson(await revokeSeatIn(unit, locked), null);
  });
}

/** A purchase ended (a subscription revoked): every seat of it taken back. */
export async function revokeSeatsOf(unit: UnitOfWork, purchase: Pick<SeatedPurchase, "source">): Promise<void> {
  for (const seat of await liveSeatsOf(unit.db, purchase.source)) await revokeSeatIn(unit, seat);
}

/** A member removed: every seat they held or were invited to taken back, each locked as a revocation by hand would. */
export async function revokeSeatsOfMember(unit: UnitOfWork, memberId: string): Promise<void> {
  for (const seat of await liveSeatsOfMember(unit.db, memberId)) {
    const locked = await lockSeat(unit.db, seat.id);
    if (locked) await revokeSeatIn(unit, locked);
  }
}

/**
 * Mails a pending seat's claim link again. Only the token's digest is kept, so the new mail carries
 * a new token, working for a full lifetime again; the link mailed before stops working.
 */
export async function resendInvitation(parts: Pick<Parts, "units" | "config">, pending: CustomerSeatRow) {
  return parts.units.run(async (unit) => {
    const seat = await lockSeat(unit.db, pending.id);
    if (!seat) throw notFound("Seat");
    if (seat.status !== "pending") throw new HttpError(400, "SeatNotPending", "Seat is not in pending status");
    const member = (await seatHolders(unit.db, [seat]))(seat);
    const email = seat.email ?? member?.email;
    if (!email) throw invalidToken();
    const purchase = await purchaseOfSeat(unit.db, sourceOfSeat(seat));
    const { seller, buyer, product } = await contextOf(unit.db, purchase);
    const invitation = newInvitation(sellerClock(seller));
    const resent = await updateSeat(unit.db, seat.id, { invitation_token_hash: invitation.hash, invitation_token_expires_at: invitation.expiresAt });
    mailInvitation(unit, parts.config.PUBLIC_URL, { email, seller, buyer, product: product.name, token: invitation.token });
    return seatJson(resent, member);
  });
}

/** A seat the seller may act on (of one of the organizations the caller reaches), or Polar's 404. */
export async function sellersSeat(db: Knex, organizationIds: string[], id: string): Promise<CustomerSeatRow> {
  const seat = await findSeat(db, id);
  if (!seat || !organizationIds.includes(seat.organization_id)) throw notFound("Seat");
  return seat;
}
