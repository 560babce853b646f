import { PollingWorker, type Knex } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import { emitBillingEvent } from "../events.js";
import { sellerNow } from "../test-clock/clock.js";
import { checkouts, overdueCheckouts, updateCheckout, type CheckoutRow } from "./checkouts.sql.js";
import { checkoutJson, type CheckoutJson } from "./output.js";

/** How long a checkout stays open. */
export const CHECKOUT_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * Announces a checkout's new state to the seller's webhooks, in the transaction that changed it,
 * and gives back what it announced: the caller answers with it rather than read it all again.
 */
export async function announceCheckout(billing: Billing, trx: Knex.Transaction, checkout: CheckoutRow, type: "checkout.created" | "checkout.updated" = "checkout.updated"): Promise<CheckoutJson> {
  const json = await checkoutJson(trx, checkout, billing.config.PUBLIC_URL);
  await emitBillingEvent(billing.outbox, trx, checkout.status === "expired" ? [type, "checkout.expired"] : type, checkout.organization_id, json);
  return json;
}

/** Expires the locked, open, overdue checkouts given. */
async function expire(billing: Billing, trx: Knex.Transaction, overdue: CheckoutRow[]): Promise<void> {
  for (const checkout of overdue) await announceCheckout(billing, trx, await updateCheckout(trx, checkout.id, { status: "expired" }));
}

/**
 * A checkout as it stands now: one left open past its time is expired on the spot rather than at
 * the next sweep. `sellerTime` spares reading the seller's clock again when the caller has it.
 */
export async function current(billing: Billing, checkout: CheckoutRow, sellerTime?: Date): Promise<CheckoutRow> {
  if (checkout.status !== "open") return checkout;
  const now = sellerTime ?? (await sellerNow(billing.db, checkout.organization_id));
  if (checkout.expires_at > now) return checkout;
  return billing.db.transaction(async (trx) => {
    const locked = await checkouts(trx).where({ id: checkout.id, status: "open" }).where("expires_at", "<=", now).forUpdate().first();
    if (locked) await expire(billing, trx, [locked]);
    return (await checkouts(trx).where({ id: checkout.id }).first()) ?? checkout;
  });
}

/** Expires open checkouts past their time, every minute, a batch at a time. */
export class CheckoutExpirySweep extends PollingWorker {
  constructor(private readonly billing: Billing) {
    super({ intervalMs: 60_000, logger: billing.logger, failure: "expiring checkouts failed" });
  }

  protected pass(): Promise<void> {
    return this.drain(100, () =>
      this.billing.db.transaction(async (trx) => {
        const overdue = await overdueCheckouts(trx, 100);
        await expire(this.billing, trx, overdue);
        return overdue.length;
      }),
    );
  }
}
