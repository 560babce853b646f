import type { OrderLine } from "../orders/lines.js";
import type { PriceRow } from "../products/prices.js";
import type { SubscriptionRow } from "./subscriptions.sql.js";

/**
 * Proration lines as an order bills them: a credit never takes the order below nothing, and what is
 * left of it waits for the next order.
 */
export function billableProrations(planAmount: number, prorations: OrderLine[]): { billed: OrderLine[]; leftover: OrderLine[] } {
  let total = planAmount;
  const billed: OrderLine[] = [];
  const leftover: OrderLine[] = [];
  for (const line of prorations) {
    const amount = Math.max(line.amount, -total);
    total += amount;
    billed.push({ ...line, amount });
    if (amount !== line.amount) leftover.push({ ...line, amount: line.amount - amount });
  }
  return { billed, leftover };
}

/** The share of the current period still to run at `now`: 1 at its start, 0 at or past its end. */
export function periodLeft(subscription: Pick<SubscriptionRow, "current_period_start" | "current_period_end">, now: Date): number {
  const period = subscription.current_period_end.getTime() - subscription.current_period_start.getTime();
  const left = Math.max(0, subscription.current_period_end.getTime() - now.getTime());
  return period > 0 ? Math.min(1, left / period) : 0;
}

/** The credit for what is left of the period on the plan being left. */
export const unusedTimeLine = (subscription: Pick<SubscriptionRow, "amount" | "product_price_id">, planName: string | undefined, fraction: number): OrderLine => ({
  label: `Unused time on ${planName ?? "the previous plan"}`,
  amount: -Math.round(subscription.amount * fraction),
  proration: true,
  product_price_id: subscription.product_price_id,
});

/** The charge for what is left of the period on the plan being moved to. */
export const remainingTimeLine = (planName: string, price: Pick<PriceRow, "id">, amount: number, fraction: number): OrderLine => ({
  label: `Remaining time on ${planName}`,
  amount: Math.round(amount * fraction),
  proration: true,
  product_price_id: price.id,
});

/** A day as Polar's line labels write it: "Jan 5, 2026". */
const labelDate = (moment: Date) => new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" }).format(moment);

/**
 * The one line a change of seats bills, as Polar's: what the new seats cost less what the old ones
 * did, for what is left of the period (truncated to the minor unit, as Polar does); a charge reads
 * "Team (5 → 8 seats) — From … to …", a credit "Remaining time on Team (8 → 5 seats) — From … to …".
 */
export function seatChangeLine(
  subscription: Pick<SubscriptionRow, "amount" | "seats" | "current_period_start" | "current_period_end">,
  change: { planName: string; price: Pick<PriceRow, "id">; seats: number; amount: number },
  now: Date,
): OrderLine {
  const amount = Math.trunc((change.amount - subscription.amount) * periodLeft(subscription, now));
  const plan = `${change.planName} (${subscription.seats ?? 0} → ${change.seats} seats)`;
  const dates = `From ${labelDate(now)} to ${labelDate(subscription.current_period_end)}`;
  return { label: `${amount < 0 ? `Remaining time on ${plan}` : plan} — ${dates}`, amount, proration: true, product_price_id: change.price.id };
}
