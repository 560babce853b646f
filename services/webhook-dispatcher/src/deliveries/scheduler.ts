import { randomId, SerialRunner, type Worker } from "@tollgate/kit";
import type { Dispatcher } from "../dispatcher.js";
import type { WebhookEventRow } from "../events/events.sql.js";
import { signingSecrets } from "../endpoints/secrets.js";
import { claimDue, settleAttempt, type ClaimedEvent } from "./deliveries.sql.js";
import { renderBody } from "./formats.js";
import { disableIfFailing } from "./health.js";
import type { AttemptResult, WebhookSender } from "./sender.js";
import { signatureHeader } from "./signing.js";

/**
 * How long a claimed event is held: the send timeout and as long again (at least 5 s) to record the
 * attempt. A replica that dies holding events lets them go when this ends.
 */
export const leaseMs = (timeoutMs: number) => timeoutMs + Math.max(5_000, timeoutMs);

/** The delay before retry `attempt` (1 = the first retry): doubling from the base, ±20 % so failed bursts do not return in step. */
export const retryDelayMs = (attempt: number, baseMs: number, random = Math.random) => Math.round(baseMs * 2 ** (attempt - 1) * (0.8 + 0.4 * random()));

/**
 * Sends due events: claims as many as there are free slots (overall and per endpoint), sends each
 * without waiting for the others, and claims again as slots free up, so a slow endpoint holds only
 * its own slots. Woken by new events, and polled for retries that come due.
 */
export class DeliveryScheduler implements Worker {
  private readonly runner: SerialRunner;
  private readonly inFlight = new Map<string, number>();
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly dispatcher: Dispatcher,
    private readonly sender: WebhookSender,
  ) {
    this.runner = new SerialRunner(
      () => this.claimAndSend(),
      (error) => dispatcher.logger.error({ err: error }, "claiming webhook deliveries failed"),
    );
  }

  start(): Promise<void> {
    this.runner.poll(this.dispatcher.config.WEBHOOK_POLL_INTERVAL_MS);
    return Promise.resolve();
  }

  wake(): void {
    this.runner.wake();
  }

  async stop(): Promise<void> {
    await this.runner.stop();
    await Promise.all(this.sending);
    this.sender.close();
  }

  private async claimAndSend(): Promise<void> {
    const { config, db } = this.dispatcher;
    const sendingNow = [...this.inFlight.values()].reduce((sum, count) => sum + count, 0);
    const claimed = await claimDue(db, {
      limit: config.WEBHOOK_CONCURRENCY - sendingNow,
      perEndpoint: config.WEBHOOK_ENDPOINT_CONCURRENCY,
      inFlight: this.inFlight,
      leaseMs: leaseMs(config.WEBHOOK_TIMEOUT_MS),
    });
    for (const event of claimed) {
      this.inFlight.set(event.endpoint_id, (this.inFlight.get(event.endpoint_id) ?? 0) + 1);
      const sending = this.deliver(event)
        .catch((error: unknown) => this.dispatcher.logger.error({ err: error, webhookEventId: event.id }, "recording a webhook delivery failed; it is retried when its lease ends"))
        .finally(() => {
          const left = (this.inFlight.get(event.endpoint_id) ?? 1) - 1;
          if (left > 0) this.inFlight.set(event.endpoint_id, left);
          else this.inFlight.delete(event.endpoint_id);
          this.sending.delete(sending);
          this.runner.wake();
        });
      this.sending.add(sending);
    }
  }

  private async deliver(event: ClaimedEvent): Promise<void> {
    const { vault } = this.dispatcher;
    const timestamp = Math.floor(Date.now() / 1000);
    const body = renderBody(event.format, event.payload);
    const result = await this.sender.post(event.url, body, {
      "webhook-id": event.id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signatureHeader(event.id, timestamp, body, signingSecrets(vault, event)),
    });
    await this.record(event, result);
  }

  /** The attempt, and what it means for the event: done, given up, or due again after a backoff. */
  private async record(event: ClaimedEvent, result: AttemptResult): Promise<void> {
    const { db, config, logger } = this.dispatcher;
    const attempt = { id: randomId(32), webhook_event_id: event.id, endpoint_id: event.endpoint_id, ...result };
    const outcome: Partial<WebhookEventRow> = result.succeeded
      ? { status: "succeeded", run_at: null }
      : event.attempts >= config.WEBHOOK_MAX_ATTEMPTS
        ? { status: "failed", run_at: null }
        : { run_at: new Date(Date.now() + retryDelayMs(event.attempts, config.WEBHOOK_RETRY_BASE_MS)) };
    const settled = { ...outcome, leased_until: null, last_http_code: result.httpCode };
    // The common case, a success, is one statement; a failure may also turn the endpoint off, so it is a transaction.
    if (result.succeeded) {
      await settleAttempt(db, attempt, settled);
      return;
    }
    await db.transaction(async (trx) => {
      await settleAttempt(trx, attempt, settled);
      await disableIfFailing(this.dispatcher, trx, event.endpoint_id);
    });
    logger.info({ webhookEventId: event.id, endpointId: event.endpoint_id, attempt: event.attempts, httpCode: result.httpCode, error: result.error }, "webhook delivery attempt failed");
  }
}
