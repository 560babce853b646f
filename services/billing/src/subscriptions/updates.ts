import { HttpError, invalidField, reachable, type Knex, type UnitOfWork } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import type { Parts } from "../parts.js";
import { findDiscount } from "../discounts/discounts.sql.js";
import { changeProduct, changeSeats, type ProrationBehaviour } from "../flows/charge-change.js";
import { countLiveSeats } from "../customer-seats/service.js";
import { discountProblem } from "../discounts/service.js";
import { findSeller } from "../organizations/organizations.sql.js";
import { subscriptionSettingsOf } from "../organizations/output.js";
import { amountFor, chosenPrice, seatsFor } from "../products/prices.js";
import { productsWithParts } from "../products/products.sql.js";
import { maximumSeats, minimumSeats, seatsAmount } from "../products/seat-tiers.js";
import { sellerNow } from "../test-clock/clock.js";
import type { SubscriptionUpdate } from "./schemas.js";
import {
  cancelAtPeriodEnd,
  changeDiscount,
  changePeriodEnd,
  changeTrial,
  changeWhenNotRenewing,
  pauseAsAsked,
  revoke,
  shownSubscription,
  stillRunning,
  uncancel,
} from "./service.js";
import { findSubscription, lockSubscription, type SubscriptionRow } from "./subscriptions.sql.js";

type Change = (unit: UnitOfWork, subscription: SubscriptionRow, now: Date) => Promise<SubscriptionRow>;

/** The proration behaviour asked for, else the seller's; only those a change now can have are offered. */
async function behaviourOf(db: Knex, subscription: SubscriptionRow, asked: SubscriptionUpdate["proration_behavior"]): Promise<ProrationBehaviour> {
  const seller = await findSeller(db, subscription.organization_id);
  const behaviour = asked ?? (seller ? subscriptionSettingsOf(seller).proration_behavior : "prorate");
  if (behaviour !== "invoice" && behaviour !== "prorate") throw invalidField(["proration_behavior"], "Only invoice and prorate are offered", behaviour);
  return behaviour;
}

const seatRefusal = (error: string, detail: string) => new HttpError(400, error, detail);

/**
 * A change of the subscription's seats, checked as Polar checks it: a running subscription not set
 * to cancel, on a seat-based price, within its tiers, and never below the seats assigned or claimed.
 * Asking for the seats it has changes nothing and announces nothing.
 */
export function seatsChange({ config }: Pick<Parts, "config">, seats: number, asked: SubscriptionUpdate["proration_behavior"]): Change {
  return async (unit, subscription, now) => {
    if (subscription.ended_at !== null || subscription.cancel_at_period_end) throw new HttpError(403, "AlreadyCanceledSubscription", "This subscription is already canceled or will be at the end of the period.");
    const [product] = await productsWithParts(unit.db, [subscription.product_id]);
    const price = product?.prices.find((candidate) => candidate.id === subscription.product_price_id);
    if (!product || price?.amount_type !== "seat_based" || !price.seat_tiers) throw seatRefusal("NotASeatBasedSubscription", "This subscription does not support seat-based pricing.");
    const least = minimumSeats(price.seat_tiers);
    const most = maximumSeats(price.seat_tiers);
    if (seats < least) throw seatRefusal("BelowMinimumSeats", `Minimum ${least} seats required.`);
    if (most !== null && seats > most) throw seatRefusal("AboveMaximumSeats", `Maximum ${most} seats allowed.`);
    const taken = await countLiveSeats(unit.db, { subscription_id: subscription.id });
    if (seats < taken) throw seatRefusal("SeatsAlreadyAssigned", `Cannot decrease seats to ${seats}. Currently ${taken} seats are assigned. Revoke seats first.`);
    if (seats === subscription.seats) return subscription;
    const behaviour = await behaviourOf(unit.db, subscription, asked);
    return changeSeats({ config }, unit, subscription, { product, price, seats, amount: seatsAmount(price.seat_tiers, seats), behaviour, now });
  };
}

/** Changes a subscription with its row locked, once no renewal is in flight for it. */
async function changed({ db, units, access }: Pick<Parts, "db" | "units" | "access">, identity: IdentityClaims, id: string, change: Change): Promise<SubscriptionRow> {
  const reached = await reachable(access, identity, "subscriptions:write", await findSubscription(db, id), "Subscription");
  const locked = async (db: Knex) => {
    const subscription = await lockSubscription(db, reached.id);
    if (!subscription) throw new Error(`subscription ${reached.id} is gone`);
    return subscription;
  };
  return changeWhenNotRenewing(units, locked, async (unit, subscription) => change(unit, subscription, await sellerNow(unit.db, subscription.organization_id)));
}

/** The change a request to update a subscription asks for: Polar's SubscriptionUpdate, one kind of change per call, told apart by its fields. */
function changeAskedFor({ config }: Pick<Parts, "config">, body: SubscriptionUpdate): Change {
  if (body.seats !== undefined) return seatsChange({ config }, body.seats, body.proration_behavior);
  const discountId = body.discount_id;
  if (discountId !== undefined) {
    return async (unit, subscription, now) => {
      stillRunning(subscription);
      if (discountId === null) return changeDiscount(unit, config, subscription, null);
      const discount = await findDiscount(unit.db, discountId);
      const problem = discount?.organization_id === subscription.organization_id ? await discountProblem(unit.db, discount, subscription.product_id, subscription.currency, now) : "Discount does not exist.";
      if (problem) throw invalidField(["discount_id"], problem, discountId);
      if (discountId === subscription.discount_id) throw invalidField(["discount_id"], "This discount is already applied to the subscription.", discountId);
      return changeDiscount(unit, config, subscription, discount ?? null);
    };
  }
  const trialEnd = body.trial_end;
  if (trialEnd !== undefined) return (unit, subscription, now) => changeTrial(unit, config, subscription, trialEnd, now);
  const periodEnd = body.current_billing_period_end;
  if (periodEnd !== undefined) return (unit, subscription, now) => changePeriodEnd(unit, config, subscription, periodEnd, now);
  const productId = body.product_id;
  if (productId !== undefined) {
    return async (unit, subscription, now) => {
      stillRunning(subscription);
      const [product] = await productsWithParts(unit.db, [productId]);
      if (!product || product.organization_id !== subscription.organization_id || product.is_archived) throw invalidField(["product_id"], "Product not found or archived", productId);
      if (product.recurring_interval === null) throw invalidField(["product_id"], "A subscription moves to a recurring product only", productId);
      const price = chosenPrice(product, subscription.currency, null, ["product_id"]);
      // Seats carry over to another seat-based plan (a plan without them starts at its fewest); a plan
      // without seats cannot take a seat-based subscription, as Polar's cannot.
      if (subscription.seats !== null && price.amount_type !== "seat_based") throw invalidField(["product_id"], "Can't switch from a seat-based to a non-seat-based product.", productId);
      const seats = seatsFor(price, price.amount_type === "seat_based" ? subscription.seats : null, undefined, ["product_id"]);
      const behaviour = await behaviourOf(unit.db, subscription, body.proration_behavior);
      return changeProduct({ config }, unit, subscription, { product, price, amount: amountFor(price, null, ["product_id"], seats), seats, behaviour, now });
    };
  }
  if (body.pause_at_period_end !== undefined || body.resume) return (unit, subscription, now) => pauseAsAsked(unit, config, subscription, body, now);
  const reason = body.customer_cancellation_reason ?? null;
  const comment = body.customer_cancellation_comment ?? null;
  return async (unit, subscription, now) => {
    stillRunning(subscription);
    if (body.revoke) return revoke(unit, config, subscription, now, { reason: reason ?? subscription.customer_cancellation_reason, comment: comment ?? subscription.customer_cancellation_comment, billUsage: true });
    if (body.cancel_at_period_end === true && !subscription.cancel_at_period_end) return cancelAtPeriodEnd(unit, config, subscription, now, reason, comment);
    if (body.cancel_at_period_end === false && subscription.cancel_at_period_end) return uncancel(unit, config, subscription);
    if (body.cancel_at_period_end === undefined) throw invalidField(["cancel_at_period_end"], "Say what to change: cancel_at_period_end, revoke, pause_at_period_end or resume", null);
    return subscription;
  };
}

/**
 * Updates a subscription as the request asks. A trial ended now, or a plan change billed now, makes
 * it due at once: the renewal worker charges it after the change commits (outside any transaction,
 * as every charge is), and the answer shows the outcome.
 */
export async function updateSubscriptionAsAsked(parts: Pick<Parts, "db" | "units" | "access" | "config"> & { renewNow: (subscriptionId: string) => Promise<void> }, identity: IdentityClaims, id: string, body: SubscriptionUpdate) {
  let subscription = await changed(parts, identity, id, changeAskedFor(parts, body));
  // A resumed subscription starts its period now: the worker charges it before the answer.
  if (body.trial_end === "now" || subscription.charge_order_id || body.resume) {
    await parts.renewNow(subscription.id);
    const charged = await findSubscription(parts.db, subscription.id);
    if (!charged) throw new Error(`subscription ${subscription.id} is gone`);
    subscription = charged;
  }
  return shownSubscription(parts.db, subscription, parts.config.PUBLIC_URL);
}

/** Revokes a subscription now; the usage of its last period is charged before the answer. */
export async function revokeNow(parts: Pick<Parts, "db" | "units" | "access" | "config"> & { renewNow: (subscriptionId: string) => Promise<void> }, identity: IdentityClaims, id: string) {
  const subscription = await changed(parts, identity, id, (unit, subscription, now) => {
    stillRunning(subscription);
    return revoke(unit, parts.config, subscription, now, { billUsage: true });
  });
  if (subscription.charge_order_id) await parts.renewNow(subscription.id);
  return shownSubscription(parts.db, subscription, parts.config.PUBLIC_URL);
}
