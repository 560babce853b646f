/**
 * Tollgate with several replicas of every service, as `npm start -- --replicas 2` runs it (the
 * launcher itself, from source), on a NATS server of the run's own, which can be restarted without
 * touching the machine's shared one. It knows each process from the launcher's lines, so one can be
 * killed; the launcher starts it again. Shared by bench/scale and bench/chaos.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { generateIdentityKeys } from "@tollgate/kit";
import { PrivateNatsServer } from "@tollgate/kit/testing";
import { freePort } from "../../launcher/src/ports.js";

const LAUNCHER = fileURLToPath(new URL("../../launcher/src/main.ts", import.meta.url));

/** How long after a replica's exit the gateway may still be sending it requests, its event loop busy under load. */
const GATEWAY_NOTICES_CLOSE_MS = 1_000;

/** One moment the run disturbed on purpose, from when it began until everything it cut off was back. */
export interface Disruption {
  /** `billing#1`, `nats-server`, `postgres`, … */
  target: string;
  /** What was done to it: `killed`, `restarted`, … */
  what: string;
  /** What happened meanwhile, for the progress lines. */
  detail: string;
  /** performance.now() when the kill or stop was sent. */
  at: number;
  /** When the fault itself was over: the process known to be gone (the launcher starts it again), the server accepting again. */
  ended: number;
  /** Until when a request may have failed for it: a replica gone, the gateway or a server's clients back. */
  until: number;
}

export interface StackOptions {
  replicas: number;
  databaseUrl: string;
  natsPrefix: string;
  redisUrl: string;
  redisPrefix: string;
  /** Settings for every process on top of the run's own (quick webhook retries, cheap hashes). */
  env: Record<string, string>;
  /** Where the processes' own lines go (warnings and errors only: they run at LOG_LEVEL=warn). */
  print: (line: string) => void;
}

interface Replica {
  pid: number;
  url: string;
}

/** A process and when it exits. */
function started(child: ChildProcess): { child: ChildProcess; exited: Promise<void> } {
  return { child, exited: new Promise((resolve) => child.once("exit", () => resolve())) };
}

const isRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

export class TollgateStack {
  readonly url: string;
  /** Every replica's current process, by its label (`billing#2`), and every pid any of them ever had. */
  readonly replicas = new Map<string, Replica>();
  readonly everyPid = new Set<number>();
  /** Every pid the NATS server had, before and after its restart. */
  readonly natsPids = new Set<number>();
  private readonly exits = new Map<string, () => void>();
  private launcher: { child: ChildProcess; exited: Promise<void> } | null = null;
  /** The launcher's lines and the processes' warnings, for a failure's explanation. */
  readonly lines: string[] = [];

  private constructor(
    private readonly options: StackOptions,
    private readonly port: number,
    readonly nats: PrivateNatsServer,
  ) {
    this.url = `http://127.0.0.1:${port}`;
    if (nats.pid) this.natsPids.add(nats.pid);
  }

  /** Starts the run's NATS server, then the launcher; resolves once Tollgate says it is ready. */
  static async start(options: StackOptions): Promise<TollgateStack> {
    const stack = new TollgateStack(options, await freePort(), await PrivateNatsServer.start());
    try {
      await stack.startLauncher();
      return stack;
    } catch (error) {
      await stack.stop();
      throw error;
    }
  }

  /** pids of the launcher and of every replica and gateway it ever ran. */
  get pids(): number[] {
    return [this.launcher?.child.pid, ...this.everyPid].filter((pid): pid is number => pid !== undefined);
  }

  /**
   * SIGKILL to one replica (or the gateway); resolves, with the moments, once the launcher has seen it
   * exit. The gateway's disruption lasts until it is ready again: nothing reaches Tollgate meanwhile.
   * A replica's lasts a little past its exit: the gateway may still write a request into a kept-alive
   * connection to it until its own event loop has handled that connection's close, and such a request
   * (not safe to send again: the gateway cannot tell it apart from one the replica took and died on)
   * fails.
   */
  async kill(label: string): Promise<Disruption> {
    const replica = this.replicas.get(label);
    if (!replica) throw new Error(`no replica ${label}; known: ${[...this.replicas.keys()].join(", ")}`);
    const exited = new Promise<void>((resolve) => this.exits.set(label, resolve));
    const at = performance.now();
    process.kill(replica.pid, "SIGKILL");
    await exited;
    const ended = performance.now();
    if (label === "gateway") await this.ready(label);
    const until = label === "gateway" ? performance.now() : ended + GATEWAY_NOTICES_CLOSE_MS;
    return { target: label, what: "killed", at, ended, until, detail: `pid ${replica.pid}` };
  }

  /** The processes (replicas and the gateway) that are not wholly ready right now: unready, or degraded (Redis away). */
  async unready(): Promise<string[]> {
    const checks = await Promise.all([...this.replicas].map(async ([label, replica]) => ((await whollyReady(replica.url)) ? null : label)));
    return checks.filter((label): label is string => label !== null);
  }

  /** Resolves once `label` (`gateway` too) answers /readyz as wholly ready, as it does once it has started again and reached Postgres, NATS and Redis. */
  async ready(label: string, timeoutMs = 60_000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline) {
      const replica = this.replicas.get(label);
      const ready = replica && (await whollyReady(replica.url));
      if (ready) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${label} was not ready within ${timeoutMs} ms`);
  }

  /**
   * Stops the NATS server (SIGTERM), keeps it down for `downMs`, and starts it again on the same port
   * and store; the disruption lasts until every process is connected again (its /readyz checks NATS).
   */
  async restartNats(downMs = 0): Promise<Disruption> {
    const restart = await this.outage("nats-server", "restarted", () => this.nats.restart(downMs));
    if (this.nats.pid) this.natsPids.add(this.nats.pid);
    return restart;
  }

  /**
   * A server every process needs (NATS, Postgres, Redis) stopped and started again by `fault`, which
   * resolves once it accepts connections; the disruption lasts until every process answers /readyz,
   * which checks each server it uses.
   */
  async outage(target: string, what: string, fault: () => Promise<void>): Promise<Disruption> {
    const at = performance.now();
    await fault();
    const ended = performance.now();
    await Promise.all([...this.replicas.keys()].map((label) => this.ready(label)));
    const until = performance.now();
    return { target, what, at, ended, until, detail: `accepting again after ${Math.round(ended - at)} ms, every process ready after ${Math.round(until - at)} ms` };
  }

  /** Stops Tollgate as Ctrl-C would, then the NATS server (removing its store). */
  async stop(): Promise<void> {
    const launcher = this.launcher;
    if (launcher?.child.pid && isRunning(launcher.child)) {
      process.kill(launcher.child.pid, "SIGINT");
      let timer: NodeJS.Timeout | undefined;
      const stopped = await Promise.race([launcher.exited.then(() => true), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), 30_000)))]);
      clearTimeout(timer);
      if (!stopped) {
        launcher.child.kill("SIGKILL");
        // What it could not stop: only processes still running with this run's NATS prefix (every process reads it), as a pid may have been reused since.
        for (const pid of this.everyPid) if (this.isOurs(pid)) process.kill(pid, "SIGKILL");
      }
    }
    await this.nats.stop();
  }

  private async startLauncher(): Promise<void> {
    const identityKeys = generateIdentityKeys();
    // As from a developer's shell (vitest sets NODE_ENV=test); production would refuse the receiver's http:// URL.
    const { NODE_ENV: _testMode, ...shell } = process.env;
    const child = spawn(process.execPath, ["--conditions=development", "--import", "tsx", LAUNCHER, "start", "--replicas", String(this.options.replicas)], {
      env: {
        ...shell,
        DATABASE_URL: this.options.databaseUrl,
        NATS_URL: this.nats.url,
        NATS_PREFIX: this.options.natsPrefix,
        REDIS_URL: this.options.redisUrl,
        REDIS_PREFIX: this.options.redisPrefix,
        PORT: String(this.port),
        PUBLIC_URL: `http://localhost:${this.port}`,
        LOG_LEVEL: "warn",
        LOG_FORMAT: "json",
        // Every secret given, so the launcher neither reads nor writes the developer's .tollgate/secrets.json.
        AUTH_SECRET: randomBytes(32).toString("base64url"),
        IDENTITY_SIGNING_KEY: identityKeys.signingKey,
        FILE_URL_SECRET: randomBytes(32).toString("base64url"),
        WEBHOOK_SECRET_KEYS: `scale:${randomBytes(32).toString("base64")}`,
        ...this.options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    this.launcher = started(child);
    let announceReady = () => {};
    const ready = new Promise<void>((resolve) => (announceReady = resolve));
    const read = (line: string) => {
      const replicaStarted = /(\S+) started \(pid (\d+)\) at (http:\S+)/.exec(line);
      if (replicaStarted?.[1] && replicaStarted[2] && replicaStarted[3]) {
        const pid = Number(replicaStarted[2]);
        this.replicas.set(replicaStarted[1], { pid, url: replicaStarted[3] });
        this.everyPid.add(pid);
      }
      const exited = /(\S+) exited unexpectedly/.exec(line);
      if (exited?.[1]) this.exits.get(exited[1])?.();
      if (/Tollgate is ready at/.test(line)) announceReady();
      if (line.trim() !== "") this.note(line);
    };
    createInterface({ input: child.stdout }).on("line", read);
    createInterface({ input: child.stderr }).on("line", read);
    const gaveUp = this.launcher.exited.then(() => Promise.reject(new Error(`the launcher exited before Tollgate was ready:\n${this.lines.slice(-40).join("\n")}`)));
    const tooLong = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`Tollgate was not ready within 180 s:\n${this.lines.slice(-40).join("\n")}`)), 180_000).unref());
    await Promise.race([ready, gaveUp, tooLong]);
  }

  private isOurs(pid: number): boolean {
    try {
      return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(`NATS_PREFIX=${this.options.natsPrefix}`);
    } catch {
      return false;
    }
  }

  private note(line: string): void {
    this.lines.push(line);
    this.options.print(line);
  }
}

/** `/readyz` says `ready`: not unready, and not degraded (serving without Redis). */
function whollyReady(url: string): Promise<boolean> {
  return fetch(`${url}/readyz`).then(
    async (response) => response.ok && ((await response.json()) as { status?: string }).status === "ready",
    () => false,
  );
}
