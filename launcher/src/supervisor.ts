import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { linePrinter, type LogFormat } from "./output.js";

export interface ProcessSpec {
  name: string;
  /** Package export of the process's entry point, e.g. `@tollgate/auth/main`. */
  entry: string;
  args?: string[];
  env: Record<string, string>;
}

interface Supervised {
  spec: ProcessSpec;
  child: ChildProcess;
  exited: Promise<number>;
}

/**
 * Runs Tollgate's processes as children with prefixed output. Each child has its own process
 * group, so a Ctrl-C reaches only the launcher, which then stops them in order with SIGTERM.
 */
export class Supervisor {
  private readonly running: Supervised[] = [];
  private stopping = false;

  constructor(
    private readonly format: LogFormat,
    private readonly onUnexpectedExit: (name: string, code: number) => void,
  ) {}

  start(spec: ProcessSpec): Supervised {
    // Resolving through the package exports picks src/*.ts when the launcher itself runs from
    // source (node --conditions=development with tsx) and dist/*.js otherwise.
    const entry = fileURLToPath(import.meta.resolve(spec.entry));
    const child = spawn(process.execPath, [...process.execArgv, entry, ...(spec.args ?? [])], {
      // The whole environment, as the launcher chose it: a child inherits nothing else (no other process's secrets).
      env: spec.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const print = linePrinter(spec.name, this.running.length, this.format);
    createInterface({ input: child.stdout }).on("line", print);
    createInterface({ input: child.stderr }).on("line", print);
    const exited = new Promise<number>((resolve) => {
      child.on("exit", (code, signal) => {
        const status = code ?? (signal ? 128 : 1);
        if (!this.stopping && spec.args?.[0] !== "migrate") this.onUnexpectedExit(spec.name, status);
        resolve(status);
      });
    });
    const supervised = { spec, child, exited };
    this.running.push(supervised);
    return supervised;
  }

  /** Runs a one-shot command (like `migrate`) to completion; resolves with its exit code. */
  run(spec: ProcessSpec): Promise<number> {
    return this.start(spec).exited;
  }

  /** SIGTERM to every process still running; resolves, true if all exited cleanly, when all have. */
  async stopAll(): Promise<boolean> {
    this.stopping = true;
    const codes = await Promise.all(
      [...this.running].reverse().map(async ({ child, exited }) => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
        return exited;
      }),
    );
    return codes.every((code) => code === 0);
  }
}
