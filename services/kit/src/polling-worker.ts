import { isDatabaseUnreachable } from "./db/connection.js";
import type { Logger } from "./logger.js";
import { SerialRunner } from "./serial-runner.js";
import type { Worker } from "./service.js";

/** How soon a pass that failed for want of Postgres is tried again, however long the worker's interval. */
const UNREACHABLE_RETRY_MS = 1_000;

/**
 * A worker that works in passes: one every `intervalMs`, and one at once when woken (new work has
 * arrived). Passes never overlap, and stopping waits for the one in progress. A failed pass is
 * logged and the next one tries again; one that failed because Postgres was away, within a second,
 * so that the work left undone (a renewal a crash cut short) goes on as soon as Postgres is back.
 */
export abstract class PollingWorker implements Worker {
  private readonly runner: SerialRunner;
  private readonly intervalMs: number;

  protected constructor(options: { intervalMs: number; logger: Logger; failure: string }) {
    this.intervalMs = options.intervalMs;
    this.runner = new SerialRunner(
      () => this.pass(),
      (error) => {
        options.logger.error({ err: error }, options.failure);
        if (isDatabaseUnreachable(error) && this.intervalMs > UNREACHABLE_RETRY_MS) setTimeout(() => this.wake(), UNREACHABLE_RETRY_MS).unref();
      },
    );
  }

  /** One pass over the work there is. */
  protected abstract pass(): Promise<void>;

  start(): Promise<void> {
    this.runner.poll(this.intervalMs);
    return Promise.resolve();
  }

  /** Asks for a pass now (after the one in progress, if any). */
  wake(): void {
    this.runner.wake();
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }

  protected get stopping(): boolean {
    return this.runner.isStopped;
  }

  /**
   * Runs work a request asked for outside the passes (bringing a seller up to their clock); when it
   * fails for want of Postgres, a pass takes it up once Postgres is back rather than at the next poll.
   */
  protected async asked<Result>(work: () => Promise<Result>): Promise<Result> {
    try {
      return await work();
    } catch (error) {
      if (isDatabaseUnreachable(error)) this.wake();
      throw error;
    }
  }

  /** Runs `batch` again while it handles a full `size` (more is waiting) and the worker is not stopping. */
  protected async drain(size: number, batch: () => Promise<number>): Promise<void> {
    while ((await batch()) === size && !this.stopping);
  }
}
