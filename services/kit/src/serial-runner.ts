/**
 * Runs a piece of background work when woken, never twice at once: a wake during a run asks for one
 * more run after it (however many wakes came), and polling on an interval covers a missed wake.
 */
export class SerialRunner {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly work: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Wakes now, and then every `intervalMs`. */
  poll(intervalMs: number): void {
    this.timer = setInterval(() => this.wake(), intervalMs);
    this.wake();
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.work()
      .catch(this.onError)
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** No more runs; resolves when the one in progress, if any, has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
