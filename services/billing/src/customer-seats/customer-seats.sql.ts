import type { Knex } from "@tollgate/kit";
import type { GrantSource } from "../benefits/benefits.sql.js";

export type SeatStatus = "pending" | "claimed" | "revoked";

export interface CustomerSeatRow {
  id: string;
  organization_id: string;
  subscription_id: string | null;
  order_id: string | null;
  /** The customer who bought the seat (a team customer). */
  customer_id: string;
  /** The member holding the seat; none once it is revoked. */
  member_id: string | null;
  email: string | null;
  status: SeatStatus;
  invitation_token_hash: string | null;
  invitation_token_expires_at: Date | null;
  claimed_at: Date | null;
  revoked_at: Date | null;
  metadata: Record<string, unknown>;
  created_at: Date;
  modified_at: Date | null;
}

/** The purchase a seat belongs to: a subscription, or the order of a one-time purchase (as a grant's). */
export type SeatSource = GrantSource;

const seats = (db: Knex) => db<CustomerSeatRow>("customer_seats");

const ofSource = (db: Knex, source: SeatSource) => seats(db).where(source.subscription_id ? { subscription_id: source.subscription_id } : { order_id: source.order_id });

/** Every seat of a purchase, in the order they were first assigned. */
export const seatsOf = (db: Knex, source: SeatSource): Promise<CustomerSeatRow[]> => ofSource(db, source).orderBy("created_at").orderBy("id");

/** The purchase's seats taken (pending or claimed): what its `seats` bounds. */
export const liveSeatsOf = (db: Knex, source: SeatSource): Promise<CustomerSeatRow[]> => ofSource(db, source).whereNot({ status: "revoked" }).orderBy("created_at").orderBy("id");

/** How many of the purchase's seats are taken. */
export async function countLiveSeats(db: Knex, source: SeatSource): Promise<number> {
  const row = await ofSource(db, source).whereNot({ status: "revoked" }).count<{ count: string }>({ count: "*" }).first();
  return Number(row?.count ?? 0);
}

/** The purchase's live seat held by (or waiting for) the address, in any case. */
export const liveSeatWithEmail = (db: Knex, source: SeatSource, email: string) =>
  ofSource(db, source).whereNot({ status: "revoked" }).whereRaw("lower(email) = lower(?)", [email]).first();

/** A revoked seat of the purchase, which a new assignment takes over (as Polar reuses them). */
export const revokedSeatOf = (db: Knex, source: SeatSource) => ofSource(db, source).where({ status: "revoked" }).orderBy("created_at").first();

/** The members holding the purchase's claimed seats: whom its benefits go to. */
export const claimedMemberIdsOf = async (db: Knex, source: SeatSource): Promise<string[]> =>
  (await ofSource(db, source).where({ status: "claimed" }).whereNotNull("member_id").orderBy("claimed_at").select("member_id")).flatMap((row) => (row.member_id ? [row.member_id] : []));

export const findSeat = (db: Knex, id: string) => seats(db).where({ id }).first();

/** The seat locked until the unit ends: a claim, a revocation and a new link for it go one at a time. */
export const lockSeat = (db: Knex, id: string) => seats(db).where({ id }).forUpdate().first();

/** The purchase a seat is of. */
export const sourceOfSeat = (seat: Pick<CustomerSeatRow, "subscription_id" | "order_id">): SeatSource =>
  seat.subscription_id ? { subscription_id: seat.subscription_id } : { order_id: seat.order_id ?? "" };

/** The seat an invitation token's digest belongs to, locked until the unit ends: two claims of one token go one after the other. */
export const lockSeatByTokenHash = (db: Knex, tokenHash: string) => seats(db).where({ invitation_token_hash: tokenHash }).forUpdate().first();

/** The seat an invitation token's digest belongs to, read only. */
export const seatByTokenHash = (db: Knex, tokenHash: string) => seats(db).where({ invitation_token_hash: tokenHash }).first();

/** A seat among those the customer bought. */
export const customersSeat = (db: Knex, customerId: string, id: string) => seats(db).where({ id, customer_id: customerId }).first();

/** The subscriptions the member holds a claimed seat of, most recently claimed first. */
export const claimedSubscriptionIdsOf = async (db: Knex, memberId: string): Promise<string[]> =>
  (await seats(db).where({ member_id: memberId, status: "claimed" }).whereNotNull("subscription_id").orderBy("claimed_at", "desc").select("subscription_id")).flatMap((row) => (row.subscription_id ? [row.subscription_id] : []));

export async function insertSeat(db: Knex, seat: Omit<CustomerSeatRow, "created_at" | "modified_at">): Promise<CustomerSeatRow> {
  const [row] = await seats(db).insert(seat).returning("*");
  if (!row) throw new Error("insert into customer_seats returned no row");
  return row;
}

type SeatChanges = Partial<Pick<CustomerSeatRow, "member_id" | "email" | "status" | "invitation_token_hash" | "invitation_token_expires_at" | "claimed_at" | "revoked_at" | "metadata">>;

export async function updateSeat(db: Knex, id: string, changes: SeatChanges): Promise<CustomerSeatRow> {
  const [row] = await seats(db)
    .where({ id })
    .update({ ...changes, modified_at: new Date() })
    .returning("*");
  if (!row) throw new Error(`customer seat ${id} is gone`);
  return row;
}
