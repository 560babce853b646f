import * as z from "zod/mini";
import type { Price } from "../api/wire";
import { email } from "./schemas";
import { isWholeNumber, wholeNumberMessage } from "./whole-number";

/**
 * A team customer's forms, which the seller's console and the customer portal both show: a member
 * added (e-mail, name, role), a seat assigned to an e-mail address, a subscription's seats changed.
 */

/** The roles a member is added with: a team has one owner, made with it and changed only by transferring it. */
export const ADDED_ROLES = ["member", "billing_manager"] as const;

export const memberForm = z.object({
  email: z.pipe(z.string().check(z.trim()), email),
  name: z.string().check(z.trim(), z.maxLength(256)),
  role: z.enum(ADDED_ROLES),
});
export type MemberForm = z.input<typeof memberForm>;
/** A member added, as both the console's and the portal's API take one: no name is null. */
export type AddedMember = Omit<z.output<typeof memberForm>, "name"> & { name: string | null };

export const seatForm = z.object({ email: z.pipe(z.string().check(z.trim()), email) });
export type SeatForm = z.input<typeof seatForm>;

/** The most seats the API takes when the price sets no maximum (a 32-bit whole number). */
const MOST_SEATS = 2_147_483_647;

export interface SeatBounds {
  min: number;
  /** Null when the price sets no maximum. */
  max: number | null;
}

/** The seat bounds of a purchase's seat-based price (its first tier's minimum, its last tier's maximum); none without one. */
export function seatBounds(prices: readonly Price[]): SeatBounds | undefined {
  const price = prices.find((candidate) => candidate.amount_type === "seat_based");
  if (!price || !("seat_tiers" in price)) return undefined;
  const { tiers } = price.seat_tiers;
  return { min: tiers[0]?.min_seats ?? 1, max: tiers.at(-1)?.max_seats ?? null };
}

/** A seat count typed in a form, within the price's bounds. */
export const seatCount = ({ min, max }: SeatBounds) => z.string().check(z.refine((text) => isWholeNumber(text, min, max ?? MOST_SEATS), { error: () => wholeNumberMessage(min, max ?? MOST_SEATS) }));
export const seatCountForm = (bounds: SeatBounds) => z.object({ seats: seatCount(bounds) });
export type SeatCountForm = z.input<ReturnType<typeof seatCountForm>>;
