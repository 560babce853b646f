import { performance } from "node:perf_hooks";
import { PollingWorker, randomId } from "@tollgate/kit";
import type { Dispatcher } from "../dispatcher.js";
import { signingSecrets } from "../endpoints/secrets.js";
import { claimDue, releaseClaims, settleAttempts, type ClaimedEvent, type Settlement } from "./deliveries.sql.js";
import { renderBody } from "./formats.js";
import { disableIfFailing } from "./health.js";
import type { WebhookSender } from "./sender.js";
import { signatureHeader } from "./signing.js";

/** The least time a lease leaves to record an attempt after its send has timed out. */
const RECORDING_MS = 5_000;

/**
 * How long a claimed event is held: a send that starts up to one timeout after the claim (later in a
 * run of an ordered endpoint) still has a whole timeout and 5 s to be recorded. A replica that dies
 * holding events lets them go when this ends.
 */
export const leaseMs = (timeoutMs: number) => 2 * timeoutMs + RECORDING_MS;

/** The delay before retry `attempt` (1 = the first retry): doubling from the base, ±20 % so failed bursts do not return in step. */
export const retryDelayMs = (attempt: number, baseMs: number, random = Math.random) => Math.round(baseMs * 2 ** (attempt - 1) * (0.8 + 0.4 * random()));

/**
 * Sends due events: claims as many as there are free slots (overall and per endpoint), sends each
 * without waiting for the others, and claims again as slots free up, so a slow endpoint holds only
 * its own slots. Attempts that finish while the database is busy are recorded together in the next
 * round, one statement for all of them, before anything new is claimed. Woken by new events and
 * finished attempts, and polled for retries that come due.
 */
export class DeliveryScheduler extends PollingWorker {
  /** Events claimed by this process and not yet settled, per endpoint. */
  private readonly inFlight = new Map<string, number>();
  private readonly sending = new Set<Promise<void>>();
  /** Attempts made and not yet recorded, in the order they finished. */
  private finished: Settlement[] = [];
  /** Claimed events left unsent behind a failure in their run, to be let go. */
  private unsent: ClaimedEvent[] = [];

  constructor(
    private readonly dispatcher: Dispatcher,
    private readonly sender: WebhookSender,
  ) {
    super({ intervalMs: dispatcher.config.WEBHOOK_POLL_INTERVAL_MS, logger: dispatcher.logger, failure: "recording or claiming webhook deliveries failed" });
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
   * Records every finished attempt and lets go of what was left unsent; if that fails, both are
   * kept for a later round.
   */
  private async settle(): Promise<void> {
    const settlements = this.finished;
    const unsent = this.unsent;
    if (settlements.length === 0 && unsent.length === 0) return;
    this.finished = [];
    this.unsent = [];
    try {
      await settleAttempts(this.dispatcher.db, settlements);
      await releaseClaims(this.dispatcher.db, unsent);
    } catch (error) {
      this.finished = [...settlements, ...this.finished];
      this.unsent = [...unsent, ...this.unsent];
      throw error;
    }
    this.freeSlots([...settlements.map((settlement) => settlement.event), ...unsent]);
    const failing = new Set(settlements.filter((settlement) => !settlement.result.succeeded).map((settlement) => settlement.event.endpoint_id));
    for (const endpointId of failing) await this.dispatcher.units.run((unit) => disableIfFailing(this.dispatcher, unit, endpointId));
  }

  private async claimAndSend(): Promise<void> {
    const { config, db } = this.dispatcher;
    const sendingNow = [...this.inFlight.values()].reduce((sum, count) => sum + count, 0);
    // A send may start only while its lease still covers a whole timeout and the time to record it.
    const sendBy = performance.now() + config.WEBHOOK_TIMEOUT_MS;
    const lease = leaseMs(config.WEBHOOK_TIMEOUT_MS);
    const claimed = await claimDue(db, {
      limit: config.WEBHOOK_CONCURRENCY - sendingNow,
      perEndpoint: config.WEBHOOK_ENDPOINT_CONCURRENCY,
      inFlight: this.inFlight,
      leaseMs: lease,
    });
    for (const event of claimed) this.inFlight.set(event.endpoint_id, (this.inFlight.get(event.endpoint_id) ?? 0) + 1);
    for (const run of sendingOrder(claimed)) {
      const sending = this.sendRun(run, sendBy).finally(() => {
        this.sending.delete(sending);
        this.wake();
      });
      this.sending.add(sending);
    }
  }

  private freeSlots(events: Pick<ClaimedEvent, "endpoint_id">[]): void {
    for (const { endpoint_id: endpointId } of events) {
      const left = (this.inFlight.get(endpointId) ?? 1) - 1;
      if (left > 0) this.inFlight.set(endpointId, left);
      else this.inFlight.delete(endpointId);
    }
  }

  /**
   * Sends events one after another, each recorded as it finishes. After a failure the rest are not
   * sent (an ordered endpoint's later events wait for the failed one), nor once their lease runs
   * short (a slow endpoint); they are let go.
   */
  private async sendRun(run: ClaimedEvent[], sendBy: number): Promise<void> {
    for (const [index, event] of run.entries()) {
      if (performance.now() > sendBy) {
        this.unsent.push(...run.slice(index));
        return;
      }
      const settlement = await this.attempt(event).catch((error: unknown) => {
        this.dispatcher.logger.error({ err: error, webhookEventId: event.id }, "sending a webhook event failed; it is sent again when its lease ends");
        return null;
      });
      if (!settlement) {
        this.freeSlots(run.slice(index));
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

  /** Sends the event once and says what that means for it. */
  private async attempt(event: ClaimedEvent): Promise<Settlement> {
    const { vault, config, logger } = this.dispatcher;
    const timestamp = Math.floor(Date.now() / 1000);
    const body = renderBody(event.format, event.payload);
    const result = await this.sender.post(event.url, body, {
      "webhook-id": event.id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signatureHeader(event.id, timestamp, body, signingSecrets(vault, event)),
    });
    const settlement = { attemptId: randomId(32), event, result };
    if (result.succeeded) return { ...settlement, status: "succeeded", runAt: null };
    logger.info({ webhookEventId: event.id, endpointId: event.endpoint_id, attempt: event.attempts, httpCode: result.httpCode, error: result.error }, "webhook delivery attempt failed");
    if (event.attempts >= config.WEBHOOK_MAX_ATTEMPTS) return { ...settlement, status: "failed", runAt: null };
    return { ...settlement, status: "pending", runAt: new Date(Date.now() + retryDelayMs(event.attempts, config.WEBHOOK_RETRY_BASE_MS)) };
  }
}

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
