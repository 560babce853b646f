import { Agent, get } from "node:http";
import { Agent as HttpsAgent, get as httpsGet } from "node:https";
import type { Duplex } from "node:stream";
import type { Logger } from "@tollgate/kit";

export type Balancing = "least-in-flight" | "round-robin";

export interface ReplicaPoolOptions {
  balancing: Balancing;
  /** How often every replica's /readyz is asked (only when there are several to choose from). */
  checkIntervalMs: number;
  /** How long a replica that refused or reset a connection is passed over. */
  ejectMs: number;
  /** A kept-alive connection older than this is closed rather than reused. */
  connectionMaxAgeMs: number;
  /** An idle kept-alive connection is closed after this long (or a second before the upstream's own Keep-Alive timeout). */
  idleTimeoutMs: number;
}

/** Longer than a service takes to give up on its own dependencies' checks (2 s), so a slow answer still counts. */
const CHECK_TIMEOUT_MS = 3_000;

/**
 * Makes `agent` keep a connection for reuse only while it is young: closing older ones makes the
 * gateway open new connections now and then, which is what lets a load balancer behind one URL (a
 * Kubernetes Service) spread them over pods it did not have when the first ones were opened. Age
 * counts from the end of a connection's first request, when the agent first pools it.
 */
function rotating<Pooling extends Agent>(agent: Pooling, maxAgeMs: number): Pooling {
  const firstPooled = new WeakMap<Duplex, number>();
  const keepByDefault = agent.keepSocketAlive.bind(agent);
  // Node closes the socket instead of pooling it when this answers false (@types/node says void).
  agent.keepSocketAlive = (socket) => {
    const now = Date.now();
    const since = firstPooled.get(socket);
    if (since === undefined) firstPooled.set(socket, now);
    else if (now - since >= maxAgeMs) return false;
    return keepByDefault(socket);
  };
  return agent;
}

/** One URL of an upstream: a replica, or a load balancer in front of several. */
export class Replica {
  /** Requests sent to it whose responses have not finished. */
  inFlight = 0;
  /** It refused or reset a connection: passed over until then. */
  ejectedUntil = 0;
  /** What its last readiness check said; ready until asked. */
  ready = true;
  readonly agent: Agent;
  /** The URL's path, which each request's own is appended to ("" for an origin). */
  readonly basePath: string;

  constructor(
    readonly url: URL,
    options: ReplicaPoolOptions,
  ) {
    // With a timeout set, node's agent honours the upstream's `Keep-Alive: timeout=5` and drops an idle
    // socket a second early; without one it keeps the socket until the upstream closes it, and a request
    // sent on it just then fails.
    const agentOptions = { keepAlive: true, timeout: options.idleTimeoutMs };
    this.agent = rotating(url.protocol === "https:" ? new HttpsAgent(agentOptions) : new Agent(agentOptions), options.connectionMaxAgeMs);
    this.basePath = url.pathname.replace(/\/$/, "");
  }

  get isHttps(): boolean {
    return this.url.protocol === "https:";
  }
}

/**
 * An upstream's replicas and the choice among them. Each request goes to a ready replica that has not
 * just refused a connection, picked by the balancing rule; when there is none such, to any it has not
 * tried yet, since trying one is better than refusing the request outright.
 */
export class ReplicaPool {
  readonly replicas: Replica[];
  /** Where the next round-robin turn (and a tie between equally busy replicas) starts. */
  private cursor = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    readonly name: string,
    targets: string[],
    private readonly options: ReplicaPoolOptions,
    private readonly logger: Logger,
  ) {
    this.replicas = targets.map((target) => new Replica(new URL(target), options));
  }

  /** The replica to send a request to next, other than those in `tried`; null once every one has been tried. */
  choose(tried: ReadonlySet<Replica>): Replica | null {
    const now = Date.now();
    const untried = this.replicas.filter((replica) => !tried.has(replica));
    const notEjected = untried.filter((replica) => replica.ejectedUntil <= now);
    const usable = notEjected.filter((replica) => replica.ready);
    const candidates = [usable, notEjected, untried].find((tier) => tier.length > 0);
    if (!candidates) return null;
    let chosen: Replica | null = null;
    for (let step = 0; step < this.replicas.length; step++) {
      const replica = this.replicas[(this.cursor + step) % this.replicas.length];
      if (!replica || !candidates.includes(replica)) continue;
      if (!chosen || (this.options.balancing === "least-in-flight" && replica.inFlight < chosen.inFlight)) chosen = replica;
    }
    if (chosen) this.cursor = (this.replicas.indexOf(chosen) + 1) % this.replicas.length;
    return chosen;
  }

  /** Passes over a replica for a while after it refused or reset a connection. */
  eject(replica: Replica): void {
    if (this.replicas.length < 2 || this.options.ejectMs === 0) return;
    if (replica.ejectedUntil <= Date.now()) this.logger.warn({ upstream: this.name, target: replica.url.origin, forMs: this.options.ejectMs }, "upstream replica ejected");
    replica.ejectedUntil = Date.now() + this.options.ejectMs;
  }

  /**
   * Asks every replica's /readyz every interval, the first time one interval from now (until then they
   * count as ready, and one that refuses is passed over anyway); with one URL there is nothing to choose
   * between, so nothing is asked.
   */
  startChecks(): void {
    if (this.replicas.length < 2) return;
    const round = async () => {
      await Promise.all(this.replicas.map((replica) => this.check(replica)));
      next();
    };
    const next = () => {
      if (!this.closed) this.timer = setTimeout(() => void round(), this.options.checkIntervalMs).unref();
    };
    next();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const replica of this.replicas) replica.agent.destroy();
  }

  private async check(replica: Replica): Promise<void> {
    const ready = await readyzAnswers200(replica);
    if (this.closed) return;
    if (ready !== replica.ready) {
      const fields = { upstream: this.name, target: replica.url.origin };
      if (ready) this.logger.info(fields, "upstream replica is ready");
      else this.logger.warn(fields, "upstream replica is not ready; routing around it");
    }
    replica.ready = ready;
    // Answering again is the surest sign a replica that refused connections is back.
    if (ready) replica.ejectedUntil = 0;
  }
}

function readyzAnswers200(replica: Replica): Promise<boolean> {
  return new Promise((resolve) => {
    const url = new URL(`${replica.basePath}/readyz`, replica.url);
    const asked = (replica.isHttps ? httpsGet : get)(url, { agent: replica.agent, timeout: CHECK_TIMEOUT_MS }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    asked.on("timeout", () => asked.destroy());
    asked.on("error", () => resolve(false));
  });
}
