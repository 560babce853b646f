/**
 * The bench's server processes: each a `node --conditions=development --import tsx <entry>` child in
 * its own process group, as the launcher's Supervisor runs Tollgate, so a Ctrl-C reaches only the
 * bench, which then stops them in order. Their output goes to stderr, prefixed with their name, so
 * stdout keeps only the results.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

interface Running {
  name: string;
  child: ChildProcess;
  exited: Promise<void>;
  /** Set when the bench stops it on purpose. */
  stopping: boolean;
}

export class Processes {
  private readonly running: Running[] = [];
  private stopping = false;

  /** `onUnexpectedExit` is told when a process ends before {@link stopAll} asked it to. */
  constructor(private readonly onUnexpectedExit: (name: string, status: string) => void) {}

  /** `entry` is relative to the repository root; `nodeArgs` go before it (e.g. `--cpu-prof`). */
  start(name: string, entry: string, env: Record<string, string>, nodeArgs: string[] = []): void {
    const path = fileURLToPath(new URL(`../${entry}`, import.meta.url));
    const child = spawn(process.execPath, ["--conditions=development", "--import", "tsx", ...nodeArgs, path], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const print = (line: string) => {
      if (line.trim() !== "") process.stderr.write(`  ${name} │ ${line}\n`);
    };
    createInterface({ input: child.stdout }).on("line", print);
    createInterface({ input: child.stderr }).on("line", print);
    const running: Running = { name, child, exited: Promise.resolve(), stopping: false };
    running.exited = new Promise<void>((resolve) => {
      child.once("exit", (code, signal) => {
        if (!this.stopping && !running.stopping) this.onUnexpectedExit(name, signal ? `signal ${signal}` : `code ${code ?? "?"}`);
        resolve();
      });
      child.once("error", (error) => {
        if (!this.stopping && !running.stopping) this.onUnexpectedExit(name, error.message);
        resolve();
      });
    });
    this.running.push(running);
  }

  /** Stops one process (to start it again with other settings). */
  async stop(name: string, graceMs: number): Promise<void> {
    const index = this.running.findIndex((candidate) => candidate.name === name);
    const running = this.running[index];
    if (!running) return;
    running.stopping = true;
    await stopOne(running, graceMs);
    this.running.splice(index, 1);
  }

  pid(name: string): number | undefined {
    return this.running.find((running) => running.name === name)?.child.pid;
  }

  /** Rejects as soon as the named process exits: raced against waiting for it to become ready. */
  exitOf(name: string): Promise<never> {
    const running = this.running.find((candidate) => candidate.name === name);
    return (running?.exited ?? Promise.resolve()).then(() => {
      throw new Error(`${name} exited before it was ready; see its output above`);
    });
  }

  /** SIGTERM to each process, newest first, then SIGKILL to any still running after `graceMs`. */
  async stopAll(graceMs: number): Promise<void> {
    this.stopping = true;
    for (const running of [...this.running].reverse()) await stopOne(running, graceMs);
  }

  /** At once and synchronously: for a second Ctrl-C and for the bench's own exit. */
  killAll(): void {
    this.stopping = true;
    for (const { child } of this.running) if (isRunning(child)) child.kill("SIGKILL");
  }
}

async function stopOne({ child, exited }: Running, graceMs: number): Promise<void> {
  if (!isRunning(child)) return;
  child.kill("SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
  clearTimeout(timer);
  if (isRunning(child)) {
    child.kill("SIGKILL");
    await exited;
  }
}

const isRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null && child.pid !== undefined;
