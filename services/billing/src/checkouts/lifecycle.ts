import { HttpError, notFound, PollingWorker, type Knex } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import { ChangeSet } from "../events.js";
import { sellerClock } from "../test-clock/clock.js";
import { catalogOf, checkoutWithCatalog, offerOf, type CheckoutCatalog } from "./catalog.js";
import { changedCheckout, checkouts, overdueCheckouts, type CheckoutRow } from "./checkouts.sql.js";
import { checkoutJson, type CheckoutJson } from "./output.js";

/** How long a checkout stays open. */
export const CHECKOUT_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Polar's answer for acting on a checkout that is no longer open. */
export const notOpen = (checkout: Pick<CheckoutRow, "status">) => new HttpError(403, "NotOpenCheckout", `Checkout is not open: ${checkout.status}`);

/**
 * Announces a checkout's new state to the seller's webhooks with the changes that made it, and
 * gives back what it announced: the caller answers with it rather than read it all again.
 */
export function announceCheckout(billing: Billing, changes: ChangeSet, checkout: CheckoutRow, catalog: CheckoutCatalog, type: "checkout.created" | "checkout.updated" = "checkout.updated"): CheckoutJson {
  const json = checkoutJson(checkout, catalog, billing.config.PUBLIC_URL);
  changes.announce(checkout.status === "expired" ? [type, "checkout.expired"] : type, checkout.organization_id, json);
  return json;
}

/** Expires the locked, open, overdue checkouts given, in one statement. */
async function expire(billing: Billing, trx: Knex.Transaction, overdue: CheckoutRow[]): Promise<void> {
  if (overdue.length === 0) return;
  const catalog = await catalogOf(trx, overdue);
  const changes = new ChangeSet(billing.outbox, trx, { batch: true });
  for (const checkout of overdue) announceCheckout(billing, changes, changedCheckout(changes, checkout, { status: "expired" }), catalog);
  await changes.write();
}

/**
 * A checkout as it stands now, `now` in its seller's clock (read with its catalog): one left open
 * past its time is expired on the spot rather than at the next sweep.
 */
export async function current(billing: Billing, checkout: CheckoutRow, now: Date): Promise<CheckoutRow> {
  if (checkout.status !== "open" || checkout.expires_at > now) return checkout;
  return billing.db.transaction(async (trx) => {
    const locked = await checkouts(trx).where({ id: checkout.id, status: "open" }).where("expires_at", "<=", now).forUpdate().first();
    if (locked) await expire(billing, trx, [locked]);
    return (await checkouts(trx).where({ id: checkout.id }).first()) ?? checkout;
  });
}

/** What a change to an open checkout answers with: the checkout as announced, and its catalog. */
export interface ChangedCheckout {
  json: CheckoutJson;
  catalog: CheckoutCatalog;
}

/**
 * Changes an open checkout under a lock on its row, so that a change and a confirmation, or two
 * confirmations, happen one after the other: the second finds the checkout no longer open (403).
 * `work` adds its changes and announcement to the change set, written in one statement when it
 * returns. A checkout found past its time is expired (and that is written) before the 403.
 */
export async function changeOpenCheckout(billing: Billing, which: Pick<CheckoutRow, "id"> | Pick<CheckoutRow, "client_secret">, work: (checkout: CheckoutRow, catalog: CheckoutCatalog, changes: ChangeSet, trx: Knex.Transaction) => Promise<CheckoutJson>): Promise<ChangedCheckout> {
  const outcome = await billing.db.transaction(async (trx): Promise<ChangedCheckout | { expired: CheckoutRow }> => {
    const found = await checkoutWithCatalog(trx, which, true);
    if (!found) throw notFound("Checkout");
    const { checkout, catalog } = found;
    const changes = new ChangeSet(billing.outbox, trx);
    if (checkout.status === "open" && checkout.expires_at <= sellerClock(offerOf(catalog, checkout).seller)) {
      const expired = changedCheckout(changes, checkout, { status: "expired" });
      announceCheckout(billing, changes, expired, catalog);
      await changes.write();
      return { expired };
    }
    if (checkout.status !== "open") throw notOpen(checkout);
    const json = await work(checkout, catalog, changes, trx);
    await changes.write();
    return { json, catalog };
  });
  if ("expired" in outcome) throw notOpen(outcome.expired);
  return outcome;
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
