/**
 * The chaos run: Tollgate with two replicas of everything, and for each case, the mixed load for a
 * while, then the case's fault while the load goes on; the load stops when the fault ends, and the
 * run measures how long it takes from then until every rule of audit.ts holds again. Shared by
 * `npm run chaos` and its short form in `npm test` (bench/test/chaos.test.ts).
 */
import type { PrivatePostgresCluster, PrivateRedisServer } from "@tollgate/kit/testing";
import { cpuUse, snapshot, type CpuUse } from "../cpu.js";
import { backendPids } from "../whole-stack/audit.sql.js";
import { clientErrors, type Verdict } from "../whole-stack/audit.js";
import { describeLeft, isSettled, WholeStackRun, type RunOptions } from "../whole-stack/run.js";
import type { Disruption } from "../whole-stack/stack.js";
import type { CaseContext, ChaosCase, Fault } from "./cases.js";

export interface ChaosOptions extends Omit<RunOptions, "redisUrl"> {
  cases: ChaosCase[];
  /** How long the load runs before each fault. */
  warmupMs: number;
  /** How long a server stays down, or the receiver keeps failing. */
  faultMs: number;
  /** How long after a fault's end the rules may take to hold again before the case counts as not recovered. */
  recoveryTimeoutMs: number;
  /** The run's own redis-server (the Redis case stops it) and, for the Postgres case, its own cluster. */
  redis: PrivateRedisServer;
  postgres: PrivatePostgresCluster | null;
}

export interface CaseReport {
  name: string;
  description: string;
  /** The fault, its moments relative to the case's start. */
  fault: Fault;
  requests: number;
  /** From the fault's end until every rule held again; null when they did not within the time allowed. */
  recoveryMs: number | null;
  /** What the recovery was waiting for, by how long it was the last thing left. */
  waitedFor: { what: string; ms: number }[];
  /** The rules after the case; `broken` and `notes` hold only what this case added (not what an earlier case already had). */
  verdicts: Verdict[];
  cpu: CpuUse | null;
}

const POLL_MS = 250;
const AUDIT_INTERVAL_MS = 2_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runChaos(options: ChaosOptions): Promise<CaseReport[]> {
  const interrupted = () => options.signal?.aborted === true;
  const run = await WholeStackRun.start({ ...options, redisUrl: options.redis.url });
  try {
    const reports: CaseReport[] = [];
    const context: CaseContext = { run, redis: options.redis, postgres: options.postgres, faultMs: options.faultMs };
    const faults: Disruption[] = [];
    // The rules are judged over the whole run: each case reports only what it added.
    const alreadySaid = new Set<string>();
    const fresh = (lines: string[]) => lines.filter((line) => !alreadySaid.has(line) && alreadySaid.add(line));
    for (const chaosCase of options.cases) {
      options.signal?.throwIfAborted();
      const report = await runCase(run, chaosCase, context, faults, options, interrupted);
      for (const verdict of report.verdicts) {
        verdict.broken = fresh(verdict.broken);
        verdict.notes = fresh(verdict.notes);
      }
      reports.push(report);
    }
    return reports;
  } finally {
    await run.stop();
  }
}

async function runCase(run: WholeStackRun, chaosCase: ChaosCase, context: CaseContext, faults: Disruption[], options: ChaosOptions, interrupted: () => boolean): Promise<CaseReport> {
  const firstRecord = run.records.length;
  let stopping = false;
  options.progress(`${chaosCase.name}: ${options.clients} clients for ${options.warmupMs / 1000} s, then ${chaosCase.description}`);
  const started = performance.now();
  const cpuBefore = await snapshot();
  let loadDone = false;
  const load = run.load(options.clients, () => stopping || interrupted()).finally(() => (loadDone = true));
  await sleep(options.warmupMs);
  const fault = await chaosCase.inject(context).finally(() => (stopping = true));
  const { disruption } = fault;
  faults.push(disruption);
  options.progress(`${chaosCase.name}: ${disruption.target} ${disruption.what}${disruption.detail ? ` (${disruption.detail})` : ""}; at the time: ${fault.context}`);

  // From the fault's end: the load's last flows finish, then the work left settles, then the rules hold.
  const deadline = disruption.ended + options.recoveryTimeoutMs;
  const waited = new Map<string, number>();
  let recoveredAt: number | null = null;
  let verdicts: Verdict[] = [];
  let told = performance.now();
  const audit = async () => [clientErrors(run.records.slice(firstRecord), fault.excusesClientErrors ? [disruption] : []), ...(await run.audit(faults))];
  while (recoveredAt === null && performance.now() < deadline && !interrupted()) {
    const polled = performance.now();
    let waitingFor: string;
    if (!loadDone) waitingFor = "the load's last flows";
    else {
      const left = await run.unsettled();
      waitingFor = describeLeft(left);
      if (isSettled(left)) {
        verdicts = await audit();
        const broken = verdicts.filter((verdict) => verdict.broken.length > 0);
        if (broken.length === 0) recoveredAt = polled;
        waitingFor = `rules to hold: ${broken.map((verdict) => verdict.rule).join("; ")}`;
        // The audit reads the whole stream: not at every poll while a rule is still broken.
        if (recoveredAt === null) await sleep(AUDIT_INTERVAL_MS - POLL_MS);
      }
    }
    if (recoveredAt !== null) break;
    if (performance.now() - told >= 5_000) {
      told = performance.now();
      options.progress(`${chaosCase.name}: waiting for ${waitingFor}`);
    }
    await sleep(POLL_MS);
    waited.set(waitingFor, (waited.get(waitingFor) ?? 0) + performance.now() - polled);
  }
  await load;
  options.signal?.throwIfAborted();
  if (recoveredAt === null) verdicts = await audit();
  const recoveryMs = recoveredAt === null ? null : recoveredAt - disruption.ended;
  const cpu = await cpuUse(cpuBefore, await snapshot(), {
    tollgate: run.stack.pids,
    nats: [...run.stack.natsPids],
    postgres: [...(await backendPids(run.db, options.database)), ...(options.postgres?.pid ? [options.postgres.pid] : [])],
    redis: options.redis.pid ? [options.redis.pid] : [],
    "bench (clients, receiver)": [process.pid],
  });
  options.progress(recoveryMs === null ? `${chaosCase.name}: NOT recovered within ${options.recoveryTimeoutMs / 1000} s` : `${chaosCase.name}: recovered ${(recoveryMs / 1000).toFixed(1)} s after the fault's end`);
  const recovery: Verdict = {
    rule: "recovered: every rule held again",
    figure: recoveryMs === null ? "no" : `${(recoveryMs / 1000).toFixed(1)} s after the fault's end`,
    notes: [],
    broken: recoveryMs === null ? [`not within ${options.recoveryTimeoutMs / 1000} s of the fault's end`] : [],
  };
  const relative = (at: number) => at - started;
  return {
    name: chaosCase.name,
    description: chaosCase.description,
    fault: { ...fault, disruption: { ...disruption, at: relative(disruption.at), ended: relative(disruption.ended), until: relative(disruption.until) } },
    requests: run.records.length - firstRecord,
    recoveryMs,
    waitedFor: [...waited].map(([what, ms]) => ({ what, ms })).sort((a, b) => b.ms - a.ms),
    verdicts: [recovery, ...verdicts],
    cpu,
  };
}
