import type { Knex } from "@tollgate/kit";
import { meterCreditsOf } from "../benefits/benefits.sql.js";
import { standingsOf, startNewPeriods, type CustomerMeterStanding } from "../customer-meters/customer-meters.sql.js";
import { metersWithIds } from "../meters/meters.sql.js";
import { meteredLine } from "../orders/lines.js";
import { meteredPricesOf } from "../products/products.sql.js";
import type { PeriodUsage, SubscriptionRow } from "./subscriptions.sql.js";

/** What a meter credit benefit gives each period. */
export interface MeterCredit {
  meter_id: string;
  units: number;
  rollover: boolean;
}

/**
 * The credit a customer meter starts its next period with: the units of the subscription's meter
 * credits on it, plus what was left unused when they all roll over. A meter no credit of the
 * subscription names keeps what is left of its credits (a one-time purchase's credits are spent by
 * use, not by time).
 */
export function nextCredit(standing: Pick<CustomerMeterStanding, "consumed_units" | "credited_units">, credits: MeterCredit[]): number {
  const unused = Math.max(0, Math.floor(standing.credited_units - standing.consumed_units));
  const carried = credits.every((credit) => credit.rollover) ? unused : 0;
  return carried + credits.reduce((sum, credit) => sum + credit.units, 0);
}

/** The metered prices of the subscriptions' products, in each subscription's currency. */
export async function meteredPricesOfSubscriptions(db: Knex, subscriptions: Pick<SubscriptionRow, "product_id" | "currency">[]) {
  const prices = await meteredPricesOf(db, [...new Set(subscriptions.map((subscription) => subscription.product_id))]);
  return (subscription: Pick<SubscriptionRow, "product_id" | "currency">) => prices.filter((price) => price.product_id === subscription.product_id && price.price_currency === subscription.currency);
}

/**
 * What the subscription's period used, read before its renewal charges the card: the lines its
 * metered prices bill, and how the customer meters end the period. Usage is the customer meter's as
 * measured when it is read: an event measured later counts in the next period, so none is billed
 * twice or lost, however late it is sent. The `last` period of a subscription that ends starts no
 * other: the meters its credits renew keep no credit (revoking takes the credits back), the others
 * keep what is left of theirs.
 */
export async function periodUsage(db: Knex, subscription: SubscriptionRow, period: "renewed" | "last" = "renewed"): Promise<PeriodUsage> {
  const [pricesOf, credits] = await Promise.all([meteredPricesOfSubscriptions(db, [subscription]), meterCreditsOf(db, subscription.id)]);
  const prices = pricesOf(subscription);
  const meterIds = [...new Set([...prices.map((price) => price.meter_id ?? ""), ...credits.map((credit) => credit.meter_id)])];
  if (meterIds.length === 0) return { lines: [], periods: [], used: false };
  const [standings, meters] = await Promise.all([standingsOf(db, [subscription.customer_id], meterIds), metersWithIds(db, meterIds)]);
  const standingOn = (meterId: string | null) => standings.find((candidate) => candidate.meter_id === meterId);
  const lines = prices.map((price) => {
    const standing = standingOn(price.meter_id);
    const meter = meters.find((candidate) => candidate.id === price.meter_id);
    return meteredLine(price, meter?.name ?? "", standing ? standing.consumed_units - standing.credited_units : 0);
  });
  const creditAfter = (standing: CustomerMeterStanding) => {
    const renewed = credits.filter((credit) => credit.meter_id === standing.meter_id);
    if (period === "renewed") return nextCredit(standing, renewed);
    return renewed.length > 0 ? 0 : nextCredit(standing, []);
  };
  const periods = standings.map((standing) => ({ id: standing.id, count: standing.count, sum: standing.sum, credited: creditAfter(standing), next_start: new Date(standing.read_at).toISOString() }));
  return { lines, periods, used: prices.some((price) => (standingOn(price.meter_id)?.consumed_units ?? 0) > 0) };
}

/** The new period starts on the customer's meters: consumption at zero, credits renewed. */
export const startNextPeriod = (db: Knex, usage: PeriodUsage) => startNewPeriods(db, usage.periods);
