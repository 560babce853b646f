import { PollingWorker, type Units } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { settlePurchase } from "../flows/settle-purchase.js";
import type { PaymentOutcome, SettledOutcome } from "../payments/processor.js";
import { startsWithTrial } from "../subscriptions/service.js";
import { awaitPaymentJob, catalogOf, changedCheckout, checkoutFromJson, checkoutWithCatalog, claimPaymentJobs, dropPaymentJob, lockTakingJob, PAYMENT_WORKER, paymentJobKeeper, retryPaymentJob, withCatalog, type CheckoutCatalog, type CheckoutRow, type PaymentJob } from "./checkouts.sql.js";
import { cardRequirementsOf, offerOf } from "./pricing.js";
import { announceCheckout, awaitCustomerAction } from "./service.js";

/** A claimed job, with its checkout and catalog as they were when it was claimed (no checkout if it is gone). */
interface ClaimedJob extends PaymentJob {
  checkout: CheckoutRow | null;
  catalog: CheckoutCatalog;
}

/**
 * How long a payment stays held after its replica last said it was still making it (a LeaseKeeper
 * says so while it is): one that dies lets it go within this, and its buyer waits that long. One
 * still running when its lease ends is harmless: the retry asks the processor under the same
 * idempotency key, and only the attempt that takes the job places the order.
 */
const LEASE_MS = 5_000;
/** A processor that keeps failing (not declining) gets this many tries before the checkout is failed. */
const MAX_ATTEMPTS = 5;
const retryDelayMs = (attempts: number) => Math.min(60_000, 1_000 * 2 ** attempts);
/**
 * How often a payment waiting for its customer's bank is asked after. The processor's webhook
 * (the customer done) makes it due at once; this is for a webhook that never comes.
 */
const AWAITING_CHECK_MS = 10_000;
/** How long a customer has to finish their bank's check before the payment is given up and the checkout opens again. */
const AWAITING_LIMIT_MS = 60 * 60 * 1000;
const NOT_FINISHED = "The bank's check of this payment was not finished in time. Pay again to try once more.";

/**
 * Pays confirmed checkouts. The processor call sits between a claim (a lease on the job) and one
 * transaction that settles the purchase (flows/settle-purchase.ts): records the payment, places the
 * order and closes the checkout. A crash in between leaves the job to be claimed again; the processor answers the
 * retry with the same payment (same idempotency key), so there is still one payment and one order.
 */
export class CheckoutPayments extends PollingWorker {
  private readonly paying: ReturnType<typeof paymentJobKeeper>;

  constructor(
    private readonly billing: Pick<Parts, "db" | "config" | "logger" | "processor" | "failures">,
    private readonly units: Units,
  ) {
    super({ intervalMs: 1_000, logger: billing.logger, failure: "paying confirmed checkouts failed" });
    this.paying = paymentJobKeeper(billing.db, LEASE_MS, billing.logger);
  }

  protected async pass(): Promise<void> {
    const jobs = await claimPaymentJobs(this.billing.db, { limit: 50, leaseMs: LEASE_MS });
    const paid = await this.paying.whileHolding(jobs, () =>
      Promise.all(
        jobs.map((claimed) => {
          const { row, catalog } = withCatalog(claimed);
          const checkout = row.checkout === null ? null : checkoutFromJson(row.checkout);
          return this.payOnItsOwn({ ...row, checkout, catalog });
        }),
      ),
    );
    await this.billing.failures.succeeded(PAYMENT_WORKER, paid.flatMap((checkoutId) => (checkoutId ? [checkoutId] : [])));
    if (jobs.length === 50) this.wake();
  }

  /**
   * Pays one job, whatever becomes of the others: one that fails (other than by the processor,
   * which has its own retries) is counted and tried again after a while, and past the bound set
   * aside for its seller to see, rather than claimed again forever. The checkout's id once paid.
   */
  private async payOnItsOwn(job: ClaimedJob): Promise<string | null> {
    try {
      await this.pay(job);
      return job.checkout_id;
    } catch (error) {
      const setAside = await this.billing.failures.failed({ worker: PAYMENT_WORKER, item: job.checkout_id, organizationId: job.checkout?.organization_id ?? null }, error);
      // A set-aside job is due at once, so that trying it again (its seller's call) takes it at once.
      await retryPaymentJob(this.billing.db, job, new Date(setAside ? Date.now() : Date.now() + retryDelayMs(job.attempts)));
      return null;
    }
  }

  private async pay(job: ClaimedJob): Promise<void> {
    const { db, processor, logger } = this.billing;
    const { checkout, catalog } = job;
    if (!checkout || checkout.status !== "confirmed") {
      await dropPaymentJob(db, job.checkout_id);
      return;
    }
    const offer = offerOf(catalog, checkout);
    const { amounts, formRequired, setupRequired } = cardRequirementsOf(checkout, offer);
    // A trial charges nothing now; a subscription keeps the card for its renewals either way.
    const charged = setupRequired && startsWithTrial(offer.product, checkout) ? 0 : amounts.total_amount;
    let outcome: PaymentOutcome | null = null;
    if (formRequired) {
      try {
        outcome = job.processor_payment_id
          ? await this.askedAfter(job.processor_payment_id, job.awaiting_since)
          : await processor.confirm({
              idempotencyKey: job.idempotency_key,
              checkoutId: checkout.id,
              customer: { id: checkout.customer_id ?? "", email: checkout.customer_email, name: checkout.customer_name },
              amount: charged,
              currency: checkout.currency,
              confirmationTokenId: job.confirmation_token_id ?? "",
              saveForLater: setupRequired,
            });
      } catch (error) {
        logger.warn({ err: error, checkoutId: checkout.id, attempt: job.attempts }, "the payment processor failed; the payment is tried again");
        await this.retryOrFail(job, checkout);
        return;
      }
    }
    if (outcome?.status === "requires_action") {
      await this.awaitCustomer(job, outcome);
      return;
    }
    const settled: SettledOutcome | null = outcome;
    await this.units.run(async (unit) => {
      const locked = await lockTakingJob(unit.db, job);
      if (!locked?.jobTaken || locked.checkout.status !== "confirmed") return;
      await settlePurchase(this.billing, unit, { checkout: locked.checkout, catalog, amounts, charged, outcome: settled });
    });
  }

  /** A payment waiting for its customer, as the processor has it now; given up once it has waited too long. */
  private async askedAfter(processorPaymentId: string, awaitingSince: Date | null): Promise<PaymentOutcome> {
    const { processor } = this.billing;
    if (!awaitingSince || Date.now() - awaitingSince.getTime() < AWAITING_LIMIT_MS) return processor.outcomeOf(processorPaymentId);
    const outcome = await processor.cancel(processorPaymentId);
    return outcome.status === "declined" ? { ...outcome, message: NOT_FINISHED } : outcome;
  }

  /**
   * The customer's bank wants them (3-D Secure): the checkout gives its page the secret to finish
   * with, and the job waits, asking after the payment now and then and at once when the processor's
   * webhook says something of it.
   */
  private async awaitCustomer(job: ClaimedJob, outcome: Extract<PaymentOutcome, { status: "requires_action" }>): Promise<void> {
    await this.units.run(async (unit) => {
      const held = await awaitPaymentJob(unit.db, job, outcome.processorPaymentId, new Date(Date.now() + AWAITING_CHECK_MS));
      const locked = held > 0 ? await checkoutWithCatalog(unit.db, { id: job.checkout_id }, true) : null;
      if (locked?.checkout.status === "confirmed") awaitCustomerAction(this.billing, unit, locked.checkout, locked.catalog, outcome.clientSecret);
    });
  }

  /** Tries the payment again later, or, after the last try, fails the checkout. */
  private async retryOrFail(job: PaymentJob, checkout: CheckoutRow): Promise<void> {
    const { db } = this.billing;
    // A payment the customer is finishing is never given up on for the processor's hiccups.
    if (job.attempts < MAX_ATTEMPTS || job.processor_payment_id) {
      await retryPaymentJob(db, job, new Date(Date.now() + retryDelayMs(job.attempts)));
      return;
    }
    await this.units.run(async (unit) => {
      const catalog = await catalogOf(unit.db, [checkout]);
      unit.change(dropPaymentJob(unit.db, job.checkout_id));
      announceCheckout(this.billing, unit, changedCheckout(unit, checkout, { status: "failed", payment_error: "The payment could not be processed. Please try again later." }), catalog);
    });
  }
}
