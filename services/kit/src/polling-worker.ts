import type { Logger } from "./logger.js";
import { SerialRunner } from "./serial-runner.js";
import type { Worker } from "./service.js";

/**
 * A worker that works in passes: one every `intervalMs`, and one at once when woken (new work has
 * arrived). Passes never overlap, and stopping waits for the one in progress. A failed pass is
 * logged and the next one tries again.
 */
export abstract class PollingWorker implements Worker {
  private readonly runner: SerialRunner;
  private readonly intervalMs: number;

  protected constructor(options: { intervalMs: number; logger: Logger; failure: string }) {
    this.intervalMs = options.intervalMs;
    this.runner = new SerialRunner(
      () => this.pass(),
      (error) => options.logger.error({ err: error }, options.failure),
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

  /** Runs `batch` again while it handles a full `size` (more is waiting) and the worker is not stopping. */
  protected async drain(size: number, batch: () => Promise<number>): Promise<void> {
    while ((await batch()) === size && !this.stopping);
  }
}
