import { PollingWorker, type Knex } from "@tollgate/kit";
import type { Billing } from "../billing.js";
import { grantBenefits } from "../benefits/granting.js";
import type { OrderRow } from "../orders/orders.sql.js";
import { markOrderPaid, openOrder, productLine } from "../orders/place.js";
import { recordPayment } from "../payments/payments.sql.js";
import { startSubscription, startsWithTrial } from "../subscriptions/lifecycle.js";
import { sellerNow } from "../test-clock/clock.js";
import { scheduleStateChange } from "../customers/customers.sql.js";
import type { PaymentOutcome } from "../payments/processor.js";
import type { PriceRow } from "../products/prices.js";
import type { ProductRow } from "../products/products.sql.js";
import { checkouts, updateCheckout, type CheckoutRow } from "./checkouts.sql.js";
import { cardRequirementsOf } from "./confirm.js";
import { announceCheckout } from "./lifecycle.js";
import type { checkoutAmounts } from "./pricing.js";

interface PaymentJob {
  checkout_id: string;
  idempotency_key: string;
  confirmation_token_id: string | null;
  attempts: number;
}

/** How long a replica holds a payment it is making; one that dies lets it go when this ends. */
const LEASE_MS = 60_000;
/** A processor that keeps failing (not declining) gets this many tries before the checkout is failed. */
const MAX_ATTEMPTS = 5;
const retryDelayMs = (attempts: number) => Math.min(60_000, 1_000 * 2 ** attempts);

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
    const { rows: jobs } = await this.billing.db.raw<{ rows: PaymentJob[] }>(
      `update checkout_payment_jobs job
       set leased_until = now() + make_interval(secs => ?), attempts = job.attempts + 1
       where job.checkout_id in (
         select checkout_id from checkout_payment_jobs
         where run_at <= now() and (leased_until is null or leased_until < now())
         order by run_at limit 50 for update skip locked)
       returning job.*`,
      [LEASE_MS / 1000],
    );
    await Promise.all(jobs.map((job) => this.pay(job)));
    if (jobs.length === 50) this.wake();
  }

  private async pay(job: PaymentJob): Promise<void> {
    const { db, processor, logger } = this.billing;
    const checkout = await checkouts(db).where({ id: job.checkout_id }).first();
    if (!checkout || checkout.status !== "confirmed") {
      await db("checkout_payment_jobs").where({ checkout_id: job.checkout_id }).delete();
      return;
    }
    const { product, price, amounts, formRequired, setupRequired } = await cardRequirementsOf(db, checkout);
    // A trial charges nothing now; a subscription keeps the card for its renewals either way.
    const charged = setupRequired && startsWithTrial(product, checkout) ? 0 : amounts.total_amount;
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
      const locked = await checkouts(trx).where({ id: checkout.id }).forUpdate().first();
      const stillOurs = await trx("checkout_payment_jobs").where({ checkout_id: checkout.id, idempotency_key: job.idempotency_key }).delete();
      if (!locked || locked.status !== "confirmed" || stillOurs === 0) return;
      const payment = { organization_id: locked.organization_id, checkout_id: locked.id, processor: this.billing.config.PAYMENT_PROCESSOR, amount: charged, currency: locked.currency };
      if (outcome?.status === "declined") {
        await recordPayment(trx, { ...payment, order_id: null }, outcome);
        await this.declined(trx, locked, outcome.message);
        return;
      }
      const order = await this.fulfil(trx, locked, product, price, amounts, outcome?.paymentMethodId ?? null);
      if (outcome) await recordPayment(trx, { ...payment, order_id: order.id }, outcome);
    });
  }

  /** The card was refused: the checkout opens again, saying why, and gives back its discount redemption. */
  private async declined(trx: Knex.Transaction, checkout: CheckoutRow, reason: string): Promise<void> {
    if (checkout.discount_id) await trx("discounts").where({ id: checkout.discount_id }).where("redemptions_count", ">", 0).decrement("redemptions_count", 1);
    await announceCheckout(this.billing, trx, await updateCheckout(trx, checkout.id, { status: "open", payment_error: reason }));
  }

  /** Paid (or free): the order, and for a recurring product the subscription it starts; then the checkout succeeds. */
  private async fulfil(trx: Knex.Transaction, checkout: CheckoutRow, product: ProductRow, price: PriceRow, amounts: ReturnType<typeof checkoutAmounts>, paymentMethodId: string | null): Promise<OrderRow> {
    if (!checkout.customer_id) throw new Error(`checkout ${checkout.id} lost its customer before its order`);
    const purchase = { customer_id: checkout.customer_id, product, lines: [productLine(product, price, amounts.amount)], discount_amount: amounts.discount_amount, tax_amount: amounts.tax_amount };
    let order: OrderRow;
    if (product.recurring_interval !== null) {
      const now = await sellerNow(trx, checkout.organization_id);
      ({ order } = await startSubscription(this.billing, trx, { checkout, customerId: checkout.customer_id, product, price, amounts, paymentMethodId, now }));
    } else {
      order = await openOrder(this.billing, trx, {
        ...purchase,
        organization_id: checkout.organization_id,
        checkout_id: checkout.id,
        subscription_id: null,
        discount_id: checkout.discount_id,
        billing_reason: "purchase",
        currency: checkout.currency,
        billing_name: checkout.customer_billing_name ?? checkout.customer_name,
        billing_address: checkout.customer_billing_address,
        custom_field_data: checkout.custom_field_data,
        metadata: checkout.metadata,
      });
      order = await markOrderPaid(this.billing, trx, order);
      await grantBenefits(this.billing, trx, { organizationId: checkout.organization_id, customerId: checkout.customer_id, productId: product.id, now: await sellerNow(trx, checkout.organization_id), source: { order_id: order.id } });
    }
    await announceCheckout(this.billing, trx, await updateCheckout(trx, checkout.id, { status: "succeeded" }));
    await scheduleStateChange(trx, checkout.customer_id, this.billing.config.CUSTOMER_STATE_DEBOUNCE_MS);
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
      await trx("checkout_payment_jobs").where({ checkout_id: job.checkout_id }).delete();
      const failed = await updateCheckout(trx, checkout.id, { status: "failed", payment_error: "The payment could not be processed. Please try again later." });
      await announceCheckout(this.billing, trx, failed);
    });
  }
}
