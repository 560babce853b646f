/**
 * The faults bench/chaos injects, one a case, each while the mixed load runs: a process killed with
 * SIGKILL, NATS or Postgres restarted, the sellers' webhook endpoint timing out or failing, Redis down.
 */
import type { PrivatePostgresCluster, PrivateRedisServer } from "@tollgate/kit/testing";
import { inFlight } from "../whole-stack/load.js";
import type { ReceiverMode, WholeStackRun } from "../whole-stack/run.js";
import type { Disruption } from "../whole-stack/stack.js";

export interface CaseContext {
  run: WholeStackRun;
  /** The run's own Redis and, when the run has one of its own, Postgres: the ones the cases stop. */
  redis: PrivateRedisServer;
  postgres: PrivatePostgresCluster | null;
  /** How long a server stays down, or the receiver keeps failing. */
  faultMs: number;
}

export interface Fault {
  disruption: Disruption;
  /** Whether the load's requests in flight meanwhile may fail: a receiver's failures never reach the load. */
  excusesClientErrors: boolean;
  /** What was going on when it struck. */
  context: string;
}

export interface ChaosCase {
  name: string;
  /** What the case does, for the progress lines. */
  description: string;
  inject(context: CaseContext): Promise<Fault>;
}

const SERVICES = ["auth", "organization", "billing", "webhook-dispatcher"];
/** How long a kill waits for its victim to be busy before striking anyway. */
const BUSY_WAIT_MS = 3_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Webhooks the receiver accepted in the last `ms`: the dispatcher is sending. */
const sentWithin = (run: WholeStackRun, ms: number) => run.receipts.filter((receipt) => receipt.at >= performance.now() - ms).length;

/** What the load had in flight, and the dispatcher was sending, at this moment. */
function busyness(run: WholeStackRun): string {
  const requests = SERVICES.map((service) => [service, inFlight(service)] as const).filter(([, count]) => count > 0);
  return `${requests.map(([service, count]) => `${count} to ${service}`).join(", ") || "no requests"} in flight, ${sentWithin(run, 1_000)} webhooks accepted in the second before`;
}

/**
 * SIGKILL to one process, once it is busy: a request of the load to its service in flight (a
 * checkout, renewal or refund for billing), or for the dispatcher, webhooks going out. The launcher
 * starts it again; the gateway passes over the dead replica meanwhile.
 */
function kill(label: string): ChaosCase {
  const service = label.split("#")[0] ?? label;
  const busy = (run: WholeStackRun) =>
    service === "webhook-dispatcher" ? sentWithin(run, 200) > 0 : service === "gateway" ? SERVICES.some((name) => inFlight(name) > 0) : inFlight(service) > 0;
  return {
    name: `kill ${label}`,
    description: `kill -9 ${label} while it is busy; the launcher starts it again`,
    async inject({ run }) {
      const deadline = performance.now() + BUSY_WAIT_MS;
      while (!busy(run) && performance.now() < deadline) await sleep(10);
      const context = busyness(run);
      return { disruption: await run.stack.kill(label), excusesClientErrors: true, context };
    },
  };
}

/** A server every process needs, stopped and started again by `disrupt` after the case's fault time. */
function outage(name: string, description: string, disrupt: (context: CaseContext) => Promise<Disruption>): ChaosCase {
  return {
    name,
    description,
    async inject(context) {
      const busy = busyness(context.run);
      return { disruption: await disrupt(context), excusesClientErrors: true, context: busy };
    },
  };
}

/** The sellers' endpoint answers `mode` for the fault time, then as a healthy one again; the dispatcher retries meanwhile. */
function receiver(name: string, mode: ReceiverMode, description: string): ChaosCase {
  return {
    name,
    description,
    async inject({ run, faultMs }) {
      const context = busyness(run);
      const at = performance.now();
      run.setReceiver(mode);
      await sleep(faultMs);
      run.setReceiver("healthy");
      const ended = performance.now();
      return { disruption: { target: "webhook receiver", what: `answering ${mode}`, detail: `for ${faultMs / 1000} s`, at, ended, until: ended }, excusesClientErrors: false, context };
    },
  };
}

export const CASES: ChaosCase[] = [
  {
    name: "no fault",
    description: "the load alone: what settling takes when nothing went wrong",
    inject: ({ run }) => {
      const at = performance.now();
      return Promise.resolve({ disruption: { target: "nothing", what: "left alone", detail: "", at, ended: at, until: at }, excusesClientErrors: false, context: busyness(run) });
    },
  },
  kill("auth#1"),
  kill("organization#2"),
  kill("billing#1"),
  kill("webhook-dispatcher#2"),
  kill("gateway"),
  outage("restart nats-server", "the run's nats-server stopped (SIGTERM) and started again on its store", ({ run, faultMs }) => run.stack.restartNats(faultMs)),
  outage("restart postgres", "the run's own Postgres cluster stopped as a crash would (immediate) and started again", ({ run, postgres, faultMs }) => {
    if (!postgres) throw new Error("the Postgres case needs a cluster of the run's own");
    return run.stack.outage("postgres", "restarted", () => postgres.restart(faultMs));
  }),
  receiver("receiver times out", "hanging", "the sellers' endpoint accepts deliveries and never answers (the dispatcher gives up after its timeout)"),
  receiver("receiver answers 500", "failing", "the sellers' endpoint answers every delivery with 500"),
  outage("redis down", "the run's own redis-server stopped, everything it held lost, and started again empty", ({ run, redis, faultMs }) => run.stack.outage("redis", "down", () => redis.restart(faultMs))),
];

/** The cases named, in the order given; throws on a name no case has. */
export function casesNamed(names: string[]): ChaosCase[] {
  return names.map((name) => {
    const found = CASES.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`no chaos case "${name}"; there are: ${CASES.map((candidate) => candidate.name).join(", ")}`);
    return found;
  });
}
