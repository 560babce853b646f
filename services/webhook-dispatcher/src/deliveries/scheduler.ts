import { performance } from "node:perf_hooks";
import { failureReason, isDatabaseUnreachable, PollingWorker, randomId, storableText } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { signingSecrets } from "../endpoints/secrets.js";
import { claimDue, deliveryKeeper, releaseClaims, settleAttempts, type ClaimedEvent, type Settlement } from "./deliveries.sql.js";
import { renderBody } from "./formats.js";
import { disableIfFailing } from "./health.js";
import type { WebhookSender } from "./sender.js";
import { deliveryItem, WEBHOOK_DELIVERY } from "./set-aside.js";
import { signatureHeader } from "./signing.js";

/**
 * How long a claimed event stays held after its replica last said it was still on it (a LeaseKeeper
 * says so from the claim until the attempt is recorded or the event let go): a replica that dies
 * holding events lets them go within this.
 */
const LEASE_MS = 5_000;

/** The delay before retry `attempt` (1 = the first retry): doubling from the base, ±20 % so failed bursts do not return in step. */
export const retryDelayMs = (attempt: number, baseMs: number, random = Math.random) => Math.round(baseMs * 2 ** (attempt - 1) * (0.8 + 0.4 * random()));

/**
 * Sends due events: claims as many as there are free slots (overall and per endpoint), sends each
 * without waiting for the others, and claims again as slots free up, so a slow endpoint holds only
 * its own slots. Attempts that finish while the database is busy are recorded together in the next
 * round, one statement for all of them, before anything new is claimed. Woken by new events and
 * finished attempts, and polled for retries that come due.
 *
 * One seller's event never holds back anyone else's: an attempt Postgres will not record, or an
 * event that cannot be sent, is counted and tried again, and after a few failures set aside (its
 * seller sees it, with the reason) while every other event goes on. Only Postgres being away stops
 * a round.
 */
export class DeliveryScheduler extends PollingWorker {
  /** Events claimed by this process and not yet settled, per endpoint. */
  private readonly inFlight = new Map<string, number>();
  private readonly sending = new Set<Promise<void>>();
  /** Attempts made and not yet recorded, in the order they finished. */
  private finished: Settlement[] = [];
  /** Claimed events left unsent behind a failure in their run, to be let go. */
  private unsent: ClaimedEvent[] = [];
  /** Events whose failures this process counted, to be forgotten once they go through. */
  private readonly failing = new Set<string>();
  /** Keeps every event claimed here and not yet settled held. */
  private readonly claims: ReturnType<typeof deliveryKeeper>;

  constructor(
    private readonly dispatcher: Parts,
    private readonly sender: WebhookSender,
  ) {
    super({ intervalMs: dispatcher.config.WEBHOOK_POLL_INTERVAL_MS, logger: dispatcher.logger, failure: "recording or claiming webhook deliveries failed" });
    this.claims = deliveryKeeper(dispatcher.db, LEASE_MS, dispatcher.logger);
  }

  override async stop(): Promise<void> {
    await super.stop();
    await Promise.all(this.sending);
    await this.settle();
    this.sender.close();
  }

  protected async pass(): Promise<void> {
    await this.settle();
    if (!this.stopping) await this.claimAndSend();
  }

  /**
   * Records every finished attempt and lets go of what was left unsent. Postgres being away keeps
   * what is not done for a later round; anything else goes wrong for one event alone (see record).
   */
  private async settle(): Promise<void> {
    const settlements = this.finished.splice(0);
    const unsent = this.unsent.splice(0);
    if (settlements.length === 0 && unsent.length === 0) return;
    let settled: Settlement[];
    try {
      settled = await this.record(settlements);
    } catch (error) {
      this.finished.unshift(...settlements);
      this.unsent.unshift(...unsent);
      throw error;
    }
    await this.letGo(unsent);
    const failingEndpoints = new Set(settled.filter((settlement) => !settlement.result.succeeded).map((settlement) => settlement.event.endpoint_id));
    for (const endpointId of failingEndpoints) {
      await this.dispatcher.units.run((unit) => disableIfFailing(this.dispatcher, unit, endpointId)).catch((error: unknown) => {
        // Tried again at the endpoint's next failed attempt; the others' deliveries go on meanwhile.
        if (isDatabaseUnreachable(error)) throw error;
        this.dispatcher.logger.error({ err: error, endpointId }, "could not turn off a failing webhook endpoint");
      });
    }
  }

  /**
   * Records the settlements in one statement; if Postgres refuses that, each on its own, so that one
   * seller's attempt it cannot store holds back no one else's. One that still fails is counted and
   * kept, to be recorded in the next round, until it is set aside: then its event is settled as
   * failed, with the reason, and passed over from then on. Frees the slots of what it settled, and
   * says what that is; takes each settlement from `settlements` as it is dealt with, so that what is
   * left there when Postgres goes away is what is still to record.
   */
  private async record(settlements: Settlement[]): Promise<Settlement[]> {
    if (settlements.length > 1) {
      const together = await settleAttempts(this.dispatcher.db, settlements).then(
        () => true,
        (error: unknown) => {
          if (isDatabaseUnreachable(error)) throw error;
          return false;
        },
      );
      if (together) return this.wentThrough(settlements.splice(0));
    }
    const settled: Settlement[] = [];
    try {
      for (let settlement = settlements[0]; settlement; settlement = settlements[0]) {
        const outcome = await this.recordAlone(settlement);
        if (outcome) settled.push(outcome);
        else this.finished.push(settlement);
        settlements.shift();
      }
    } finally {
      await this.wentThrough(settled);
    }
    return settled;
  }

  /** Records one settlement: as it is, or once it is set aside, as its event's failure; null to try again. */
  private async recordAlone(settlement: Settlement): Promise<Settlement | null> {
    const { db, failures, logger } = this.dispatcher;
    const { event } = settlement;
    try {
      await settleAttempts(db, [settlement]);
      return settlement;
    } catch (error) {
      this.failing.add(event.id);
      if (!(await failures.failed(deliveryItem(event), error))) return null;
      this.failing.delete(event.id);
      const setAside = failedAsSetAside(settlement, error);
      await settleAttempts(db, [setAside]).catch((refused: unknown) => {
        // It is set aside all the same: passed over from now on, and listed for its seller.
        if (isDatabaseUnreachable(refused)) throw refused;
        logger.error({ err: refused, webhookEventId: event.id }, "could not record a set-aside webhook event as failed");
      });
      return setAside;
    }
  }

  /** Frees the slots of settled events, and forgets the failures this process counted of those that went through after all. */
  private async wentThrough(settled: Settlement[]): Promise<Settlement[]> {
    this.freeSlots(settled.map((settlement) => settlement.event));
    const recovered = settled.map((settlement) => settlement.event.id).filter((id) => this.failing.delete(id));
    await this.dispatcher.failures.succeeded(WEBHOOK_DELIVERY, recovered).catch((error: unknown) => {
      this.dispatcher.logger.warn({ err: error }, "could not forget webhook events' past failures");
    });
    return settled;
  }

  /** Lets go of claimed events that were not sent, so they can be claimed again at once (or, should that fail, when their leases end). */
  private async letGo(unsent: ClaimedEvent[]): Promise<void> {
    try {
      await releaseClaims(this.dispatcher.db, unsent);
    } catch (error) {
      if (isDatabaseUnreachable(error)) {
        this.unsent.unshift(...unsent);
        throw error;
      }
      this.dispatcher.logger.error({ err: error, webhookEventIds: unsent.map((event) => event.id) }, "could not let go of unsent webhook events; they are sent when their leases end");
    }
    this.freeSlots(unsent);
  }

  private async claimAndSend(): Promise<void> {
    const { config, db } = this.dispatcher;
    const sendingNow = [...this.inFlight.values()].reduce((sum, count) => sum + count, 0);
    // A run's later sends start only within a timeout of the claim; a slow endpoint's rest waits for another round.
    const sendBy = performance.now() + config.WEBHOOK_TIMEOUT_MS;
    const claimed = await claimDue(db, {
      limit: config.WEBHOOK_CONCURRENCY - sendingNow,
      perEndpoint: config.WEBHOOK_ENDPOINT_CONCURRENCY,
      inFlight: this.inFlight,
      leaseMs: LEASE_MS,
    });
    this.claims.hold(claimed);
    for (const event of claimed) this.inFlight.set(event.endpoint_id, (this.inFlight.get(event.endpoint_id) ?? 0) + 1);
    for (const run of sendingOrder(claimed)) {
      const sending = this.sendRun(run, sendBy).finally(() => {
        this.sending.delete(sending);
        this.wake();
      });
      this.sending.add(sending);
    }
  }

  private freeSlots(events: Pick<ClaimedEvent, "id" | "endpoint_id" | "attempts">[]): void {
    this.claims.letGo(events);
    for (const { endpoint_id: endpointId } of events) {
      const left = (this.inFlight.get(endpointId) ?? 1) - 1;
      if (left > 0) this.inFlight.set(endpointId, left);
      else this.inFlight.delete(endpointId);
    }
  }

  /**
   * Sends events one after another, each recorded as it finishes. After a failure the rest are not
   * sent (an ordered endpoint's later events wait for the failed one), nor once a timeout has passed
   * since the claim (a slow endpoint); they are let go.
   */
  private async sendRun(run: ClaimedEvent[], sendBy: number): Promise<void> {
    for (const [index, event] of run.entries()) {
      if (performance.now() > sendBy) {
        this.unsent.push(...run.slice(index));
        return;
      }
      const settlement = await this.attempt(event).catch((error: unknown) => this.sendingFailed(event, error));
      if (!settlement) {
        this.unsent.push(...run.slice(index));
        return;
      }
      this.finished.push(settlement);
      if (index < run.length - 1) this.wake();
      if (!settlement.result.succeeded) {
        this.unsent.push(...run.slice(index + 1));
        return;
      }
    }
  }

  /**
   * An event that could not be sent (rendering or signing it threw; nothing went out) is counted and
   * let go, to be tried again; once it is set aside, it is settled as failed with the reason.
   */
  private async sendingFailed(event: ClaimedEvent, error: unknown): Promise<Settlement | null> {
    const { failures, logger } = this.dispatcher;
    this.failing.add(event.id);
    const setAside = await failures.failed(deliveryItem(event), error).catch((counting: unknown) => {
      logger.error({ err: error, countingError: counting, webhookEventId: event.id }, "sending a webhook event failed; it is sent again");
      return false;
    });
    if (!setAside) return null;
    this.failing.delete(event.id);
    const nothingSent = { succeeded: false, httpCode: null, response: null, error: null, durationMs: 0 };
    return failedAsSetAside({ attemptId: randomId(32), event, result: nothingSent, status: "failed", runAt: null }, error);
  }

  /** Sends the event once and says what that means for it. */
  private async attempt(event: ClaimedEvent): Promise<Settlement> {
    const { vault, config, logger } = this.dispatcher;
    const timestamp = Math.floor(Date.now() / 1000);
    const body = renderBody(event.format, event.payload);
    const result = await this.sender.post(event.url, body, {
      "webhook-id": event.id,
      "webhook-timestamp": String(timestamp),
      // Polar's: which API version the payload is in (its shapes are the same in every version Tollgate answers in).
      "webhook-api-version": event.api_version,
      "webhook-signature": signatureHeader(event.id, timestamp, body, signingSecrets(vault, event)),
    });
    const settlement = { attemptId: randomId(32), event, result };
    if (result.succeeded) return { ...settlement, status: "succeeded", runAt: null };
    logger.info({ webhookEventId: event.id, endpointId: event.endpoint_id, attempt: event.attempts, httpCode: result.httpCode, error: result.error }, "webhook delivery attempt failed");
    if (event.attempts >= config.WEBHOOK_MAX_ATTEMPTS) return { ...settlement, status: "failed", runAt: null };
    return { ...settlement, status: "pending", runAt: new Date(Date.now() + retryDelayMs(event.attempts, config.WEBHOOK_RETRY_BASE_MS)) };
  }
}

/** An event set aside: settled as failed, the attempt saying why, so that its seller sees it in the delivery log. */
const failedAsSetAside = (settlement: Settlement, error: unknown): Settlement => ({
  ...settlement,
  result: { ...settlement.result, succeeded: false, response: null, error: storableText(`set aside: ${failureReason(error)}`) },
  status: "failed",
  runAt: null,
});

/** What to send side by side: each event on its own, except an ordered endpoint's, which go as one run in sequence. */
function sendingOrder(claimed: ClaimedEvent[]): ClaimedEvent[][] {
  const runs = new Map<string, ClaimedEvent[]>();
  const single: ClaimedEvent[][] = [];
  for (const event of claimed) {
    if (!event.ordered) {
      single.push([event]);
      continue;
    }
    const run = runs.get(event.endpoint_id);
    if (run) run.push(event);
    else runs.set(event.endpoint_id, [event]);
  }
  const bySequence = (a: ClaimedEvent, b: ClaimedEvent) => (BigInt(a.sequence) < BigInt(b.sequence) ? -1 : 1);
  return [...single, ...[...runs.values()].map((run) => run.sort(bySequence))];
}
