import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { linePrinter, type LogFormat } from "./output.js";
import { waitUntilReady } from "./ports.js";

export interface ProcessSpec {
  /** What its output lines are labelled with: `billing`, or `billing#2` for one of several replicas. */
  name: string;
  /** Package export of the process's entry point, e.g. `@tollgate/auth/main`. */
  entry: string;
  args?: string[];
  env: Record<string, string>;
}

/** A process that serves until stopped, answering `/readyz` at `url`. */
export interface ServerSpec extends ProcessSpec {
  url: string;
}

interface Run {
  child: ChildProcess;
  exited: Promise<number>;
}

/** A server and its current run (none while it waits to be started again). */
interface Served {
  spec: ServerSpec;
  print: (line: string) => void;
  run: Run | null;
  /** Set once it has answered /readyz: from then on it is started again whenever it exits. */
  wasReady: boolean;
  /** Exits in a row that came soon after their start; the pause before the next start doubles with each. */
  quickExits: number;
  startedAt: number;
  restartTimer: NodeJS.Timeout | null;
}

/** A run that lasted this long was not a crash loop: the next restart waits the shortest pause again. */
const STEADY_MS = 60_000;
const FIRST_RESTART_DELAY_MS = 1_000;
const MAX_RESTART_DELAY_MS = 30_000;

const statusOf = (code: number | null, signal: NodeJS.Signals | null) => (signal ? `signal ${signal}` : `code ${code ?? "?"}`);

/**
 * Runs Tollgate's processes as children with prefixed output. Each child has its own process
 * group, so a Ctrl-C reaches only the launcher, which then stops them with SIGTERM. A server that
 * exits after it was ready is started again on the same port (the gateway keeps its address), after
 * a pause that grows while it keeps exiting soon after each start.
 */
export class Supervisor {
  private readonly oneShots: Run[] = [];
  private readonly served: Served[] = [];
  private printers = 0;
  private stopping = false;

  constructor(
    private readonly format: LogFormat,
    /** The launcher's own lines: starts, exits and restarts. */
    private readonly say: (message: string) => void,
  ) {}

  /** Runs a one-shot command (like `migrate`) to completion; resolves with its exit code. */
  run(spec: ProcessSpec): Promise<number> {
    const run = this.spawn(spec, this.printerFor(spec.name));
    this.oneShots.push(run);
    return run.exited;
  }

  /**
   * Starts a server; resolves once it answers /readyz, rejects if it exits before (or never answers).
   * It is supervised from then on.
   */
  async serve(spec: ServerSpec): Promise<void> {
    const served: Served = { spec, print: this.printerFor(spec.name), run: null, wasReady: false, quickExits: 0, startedAt: 0, restartTimer: null };
    this.served.push(served);
    const run = this.start(served);
    const status = run.exited.then((code) => `code ${code}`);
    await waitUntilReady(spec.url, () => isRunning(run.child) && !this.stopping).catch(async (error: unknown) => {
      if (isRunning(run.child)) throw error;
      throw new Error(`${spec.name} exited (${await status}) before it was ready`);
    });
    served.wasReady = true;
  }

  /** SIGTERM to every process still running; resolves, true if all exited cleanly, when all have. */
  async stopAll(): Promise<boolean> {
    this.stopping = true;
    for (const served of this.served) if (served.restartTimer) clearTimeout(served.restartTimer);
    const runs = [...this.oneShots, ...this.served.map((served) => served.run).filter((run): run is Run => run !== null)];
    const codes = await Promise.all(
      runs.map(({ child, exited }) => {
        if (isRunning(child)) child.kill("SIGTERM");
        return exited;
      }),
    );
    return codes.every((code) => code === 0);
  }

  private printerFor(name: string): (line: string) => void {
    return linePrinter(name, this.printers++, this.format);
  }

  private spawn(spec: ProcessSpec, print: (line: string) => void): Run {
    // Resolving through the package exports picks src/*.ts when the launcher itself runs from
    // source (node --conditions=development with tsx) and dist/*.js otherwise.
    const entry = fileURLToPath(import.meta.resolve(spec.entry));
    const child = spawn(process.execPath, [...process.execArgv, entry, ...(spec.args ?? [])], {
      // The whole environment, as the launcher chose it: a child inherits nothing else (no other process's secrets).
      env: spec.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    createInterface({ input: child.stdout }).on("line", print);
    createInterface({ input: child.stderr }).on("line", print);
    const exited = new Promise<number>((resolve) => {
      child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
    });
    return { child, exited };
  }

  private start(served: Served): Run {
    const run = this.spawn(served.spec, served.print);
    served.run = run;
    served.startedAt = Date.now();
    this.say(`${served.spec.name} started (pid ${run.child.pid}) at ${served.spec.url}`);
    run.child.on("exit", (code, signal) => this.exited(served, statusOf(code, signal)));
    return run;
  }

  private exited(served: Served, status: string): void {
    served.run = null;
    // Before its first readiness the exit is a failure to start, which serve() reports.
    if (this.stopping || !served.wasReady) return;
    served.quickExits = Date.now() - served.startedAt >= STEADY_MS ? 1 : served.quickExits + 1;
    const delay = Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** (served.quickExits - 1));
    this.say(`${served.spec.name} exited unexpectedly (${status}); starting it again in ${delay / 1000} s`);
    served.restartTimer = setTimeout(() => this.restart(served), delay);
  }

  private restart(served: Served): void {
    served.restartTimer = null;
    if (this.stopping) return;
    const run = this.start(served);
    waitUntilReady(served.spec.url, () => isRunning(run.child) && !this.stopping).then(
      () => this.say(`${served.spec.name} is ready again`),
      // An exit is reported (and retried) by exited(); a run that lives on unready is worth a line.
      () => {
        if (isRunning(run.child) && !this.stopping) this.say(`${served.spec.name} is running but not ready; see its output above`);
      },
    );
  }
}

const isRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
