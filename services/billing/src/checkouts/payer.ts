import { PollingWorker, prepared, type Knex } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import { grantNewPurchase } from "../benefits/granting.js";
import { countOrder, scheduleStateChange } from "../customers/customers.sql.js";
import { releaseRedemption } from "../discounts/discounts.sql.js";
import { discountJson } from "../discounts/output.js";
import { ChangeSet } from "../events.js";
import { invoiceNumberOf, type OrderRow } from "../orders/orders.sql.js";
import { placePaidOrder, productLine } from "../orders/place.js";
import { recordPayment } from "../payments/payments.sql.js";
import type { PaymentOutcome } from "../payments/processor.js";
import { startSubscription, startsWithTrial } from "../subscriptions/lifecycle.js";
import { sellerClock } from "../test-clock/clock.js";
import { catalogColumns, catalogOf, offerOf, withCatalog, type CatalogColumns, type CheckoutCatalog } from "./catalog.js";
import { changedCheckout, checkoutFromJson, type CheckoutRow } from "./checkouts.sql.js";
import { cardRequirementsOf } from "./confirm.js";
import { announceCheckout } from "./lifecycle.js";
import type { checkoutAmounts } from "./pricing.js";

interface PaymentJob {
  checkout_id: string;
  idempotency_key: string;
  confirmation_token_id: string | null;
  attempts: number;
}

/** A claimed job, with its checkout and catalog as they were when it was claimed (no checkout if it is gone). */
interface ClaimedJob extends PaymentJob {
  checkout: CheckoutRow | null;
  catalog: CheckoutCatalog;
}

/**
 * How long a replica holds a payment it is making; one that dies lets it go when this ends, and its
 * buyer waits that long. Paying is one processor call and one transaction (milliseconds with the
 * sandbox), and one still running when its lease ends is harmless: the retry asks the processor under
 * the same idempotency key, and only the attempt that takes the job places the order.
 */
const LEASE_MS = 15_000;
/** A processor that keeps failing (not declining) gets this many tries before the checkout is failed. */
const MAX_ATTEMPTS = 5;
const retryDelayMs = (attempts: number) => Math.min(60_000, 1_000 * 2 ** attempts);

/**
 * Locks the checkout and takes its payment job, in one statement: the row as it is now, and whether
 * the job was still there to take (a replica that lost its lease finds it gone).
 */
async function lockTakingJob(trx: Knex.Transaction, job: PaymentJob): Promise<{ checkout: CheckoutRow; jobTaken: boolean } | undefined> {
  const { rows } = await prepared(
    trx.raw<{ rows: { checkout: unknown; job_taken: boolean }[] }>(
      `with taken as (delete from checkout_payment_jobs where checkout_id = ? and idempotency_key = ? returning 1)
       select to_json(checkout) as checkout, exists (select 1 from taken) as job_taken from checkouts checkout where checkout.id = ? for update of checkout`,
      [job.checkout_id, job.idempotency_key, job.checkout_id],
    ),
  );
  const [row] = rows;
  return row && { checkout: checkoutFromJson(row.checkout), jobTaken: row.job_taken };
}

/**
 * Pays confirmed checkouts and turns them into orders. The processor call sits between a claim
 * (a lease on the job) and one transaction that records the payment, places the order and closes
 * the checkout. A crash in between leaves the job to be claimed again; the processor answers the
 * retry with the same payment (same idempotency key), so there is still one payment and one order.
 */
export class CheckoutPayments extends PollingWorker {
  constructor(private readonly billing: Billing) {
    super({ intervalMs: 1_000, logger: billing.logger, failure: "paying confirmed checkouts failed" });
  }

  protected async pass(): Promise<void> {
    // The jobs are claimed and their checkouts read, each with its catalog, in one statement.
    const { rows: jobs } = await prepared(this.billing.db.raw<{ rows: (PaymentJob & { checkout: unknown } & CatalogColumns)[] }>(
      `with claimed as (
         update checkout_payment_jobs job
         set leased_until = now() + make_interval(secs => ?), attempts = job.attempts + 1
         where job.checkout_id in (
           select checkout_id from checkout_payment_jobs
           where run_at <= now() and (leased_until is null or leased_until < now())
           order by run_at limit 50 for update skip locked)
         returning job.*)
       select claimed.checkout_id, claimed.idempotency_key, claimed.confirmation_token_id, claimed.attempts, to_json(checkout) as checkout, ${catalogColumns("checkout.product_ids", "array[checkout.discount_id]")}
       from claimed left join checkouts checkout on checkout.id = claimed.checkout_id`,
      [LEASE_MS / 1000],
    ));
    await Promise.all(
      jobs.map((claimed) => {
        const { row, catalog } = withCatalog(claimed);
        const checkout = row.checkout === null ? null : checkoutFromJson(row.checkout);
        return this.pay({ ...row, checkout, catalog });
      }),
    );
    if (jobs.length === 50) this.wake();
  }

  private async pay(job: ClaimedJob): Promise<void> {
    const { db, processor, logger } = this.billing;
    const { checkout, catalog } = job;
    if (!checkout || checkout.status !== "confirmed") {
      await db("checkout_payment_jobs").where({ checkout_id: job.checkout_id }).delete();
      return;
    }
    const offer = offerOf(catalog, checkout);
    const { amounts, formRequired, setupRequired } = cardRequirementsOf(checkout, offer);
    // A trial charges nothing now; a subscription keeps the card for its renewals either way.
    const charged = setupRequired && startsWithTrial(offer.product, checkout) ? 0 : amounts.total_amount;
    let outcome: PaymentOutcome | null = null;
    if (formRequired) {
      try {
        outcome = await processor.confirm({ idempotencyKey: job.idempotency_key, amount: charged, currency: checkout.currency, confirmationTokenId: job.confirmation_token_id ?? "", saveForLater: setupRequired });
      } catch (error) {
        logger.warn({ err: error, checkoutId: checkout.id, attempt: job.attempts }, "the payment processor failed; the payment is tried again");
        await this.retryOrFail(job, checkout);
        return;
      }
    }
    await db.transaction(async (trx) => {
      const locked = await lockTakingJob(trx, job);
      if (!locked?.jobTaken || locked.checkout.status !== "confirmed") return;
      const current = locked.checkout;
      const changes = new ChangeSet(this.billing.outbox, trx);
      const payment = { organization_id: current.organization_id, checkout_id: current.id, processor: this.billing.config.PAYMENT_PROCESSOR, amount: charged, currency: current.currency };
      if (outcome?.status === "declined") {
        changes.change(recordPayment(trx, { ...payment, order_id: null }, outcome));
        this.declined(changes, current, catalog, outcome.message);
      } else {
        const order = await this.fulfil(changes, current, catalog, amounts, outcome?.paymentMethodId ?? null);
        if (outcome) changes.change(recordPayment(trx, { ...payment, order_id: order.id }, outcome));
      }
      await changes.write();
    });
  }

  /** The card was refused: the checkout opens again, saying why, and gives back its discount redemption. */
  private declined(changes: ChangeSet, checkout: CheckoutRow, catalog: CheckoutCatalog, reason: string): void {
    if (checkout.discount_id) changes.change(releaseRedemption(changes.db, checkout.discount_id));
    announceCheckout(this.billing, changes, changedCheckout(changes, checkout, { status: "open", payment_error: reason }), catalog);
  }

  /**
   * Paid (or free): the order, and for a recurring product the subscription it starts, their
   * benefits granted; then the checkout succeeds. All of it joins `changes`; the customer's order
   * count, which numbers the invoice, is the one statement run here.
   */
  private async fulfil(changes: ChangeSet, checkout: CheckoutRow, catalog: CheckoutCatalog, amounts: ReturnType<typeof checkoutAmounts>, paymentMethodId: string | null): Promise<OrderRow> {
    if (!checkout.customer_id) throw new Error(`checkout ${checkout.id} lost its customer before its order`);
    const { db } = changes;
    const offer = offerOf(catalog, checkout);
    const { product, price, seller } = offer;
    const now = sellerClock(seller);
    const customer = await countOrder(db, checkout.customer_id);
    const invoiceNumber = invoiceNumberOf(seller, customer);
    const discount = offer.discount ? await discountJson(db, offer.discount) : null;
    let order: OrderRow;
    if (product.recurring_interval !== null) {
      ({ order } = startSubscription(changes, { checkout, offer, customer, amounts, paymentMethodId, now, invoiceNumber, discount, publicUrl: this.billing.config.PUBLIC_URL }));
    } else {
      order = placePaidOrder(
        changes,
        {
          organization_id: checkout.organization_id,
          customer_id: customer.id,
          checkout_id: checkout.id,
          subscription_id: null,
          discount_id: checkout.discount_id,
          billing_reason: "purchase",
          currency: checkout.currency,
          billing_name: checkout.customer_billing_name ?? checkout.customer_name,
          billing_address: checkout.customer_billing_address,
          custom_field_data: checkout.custom_field_data,
          metadata: checkout.metadata,
          product,
          lines: [productLine(product, price, amounts.amount)],
          discount_amount: amounts.discount_amount,
          tax_amount: amounts.tax_amount,
        },
        invoiceNumber,
        { customer, product, discount, subscription: null },
      );
      grantNewPurchase(changes, { customer, benefits: product.benefits, now, source: { order_id: order.id } });
    }
    announceCheckout(this.billing, changes, changedCheckout(changes, checkout, { status: "succeeded" }), catalog);
    changes.change(scheduleStateChange(db, customer.id, this.billing.config.CUSTOMER_STATE_DEBOUNCE_MS));
    return order;
  }

  /** Tries the payment again later, or, after the last try, fails the checkout. */
  private async retryOrFail(job: PaymentJob, checkout: CheckoutRow): Promise<void> {
    const { db } = this.billing;
    if (job.attempts < MAX_ATTEMPTS) {
      await db("checkout_payment_jobs").where({ checkout_id: job.checkout_id }).update({ leased_until: null, run_at: new Date(Date.now() + retryDelayMs(job.attempts)) });
      return;
    }
    await db.transaction(async (trx) => {
      const catalog = await catalogOf(trx, [checkout]);
      const changes = new ChangeSet(this.billing.outbox, trx).change(trx("checkout_payment_jobs").where({ checkout_id: job.checkout_id }).delete());
      announceCheckout(this.billing, changes, changedCheckout(changes, checkout, { status: "failed", payment_error: "The payment could not be processed. Please try again later." }), catalog);
      await changes.write();
    });
  }
}
