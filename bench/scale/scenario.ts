/**
 * The scale run: Tollgate with two replicas of everything under a mixed load while one replica of
 * each service in turn is killed (SIGKILL; the launcher starts it again) and the NATS server is
 * restarted once; then, once the work left behind has settled, the rules of audit.ts. Shared by
 * `npm run bench:scale` and its shorter form in `npm test` (bench/test/scale.test.ts).
 */
import { cpuUse, snapshot, type CpuUse } from "../cpu.js";
import { percentile } from "../support.js";
import { backendPids } from "../whole-stack/audit.sql.js";
import { clientErrors, type Verdict } from "../whole-stack/audit.js";
import { describeLeft, isSettled, WholeStackRun, type RunOptions } from "../whole-stack/run.js";
import type { Disruption } from "../whole-stack/stack.js";

export interface ScenarioOptions extends RunOptions {
  /** How long the load runs; the kills and the NATS restart are spread over it. */
  seconds: number;
  /** How long the settling may take once the load has stopped. */
  settleMs: number;
}

export interface ScenarioReport {
  seconds: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  disruptions: Disruption[];
  verdicts: Verdict[];
  cpu: CpuUse | null;
}

/** In the order they are killed, one replica each; then the NATS server is restarted. */
const VICTIMS = ["auth#1", "organization#2", "billing#1", "webhook-dispatcher#2"];

const sleepUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));

export async function runScenario(options: ScenarioOptions): Promise<ScenarioReport> {
  const interrupted = () => options.signal?.aborted === true;
  const run = await WholeStackRun.start(options);
  try {
    const { stack, records } = run;
    options.progress(`load: ${options.clients} clients for ${options.seconds} s; killing ${VICTIMS.join(", ")} in turn, then restarting NATS`);
    const disruptions: Disruption[] = [];
    const started = performance.now();
    const ends = started + options.seconds * 1000;
    const cpuBefore = await snapshot();
    const load = run.load(options.clients, () => performance.now() >= ends || interrupted());
    const chaos = (async () => {
      const moments = VICTIMS.length + 1;
      for (const [index, victim] of VICTIMS.entries()) {
        await sleepUntil(started + ((index + 1) * options.seconds * 1000) / (moments + 1));
        if (interrupted()) return;
        options.progress(`killing ${victim} (${records.length} requests so far)`);
        const kill = await stack.kill(victim);
        options.progress(`${victim} (${kill.detail}) is gone; the launcher starts it again`);
        disruptions.push(kill);
      }
      await sleepUntil(started + (moments * options.seconds * 1000) / (moments + 1));
      if (interrupted()) return;
      options.progress("restarting nats-server");
      const restart = await stack.restartNats();
      options.progress(`nats-server restarted: ${restart.detail}`);
      disruptions.push(restart);
    })();
    await Promise.all([load, chaos]);
    options.signal?.throwIfAborted();
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = await snapshot();
    const cpu = await cpuUse(cpuBefore, cpuAfter, {
      tollgate: stack.pids,
      nats: [...stack.natsPids],
      postgres: await backendPids(run.db, options.database),
      "bench (clients, receiver)": [process.pid],
    });

    options.progress(`load done: ${records.length} requests in ${seconds.toFixed(1)} s; waiting for the replicas killed to be back and the work left to settle`);
    const settleStarted = performance.now();
    const left = await run.settle(options.settleMs, options.progress, interrupted);
    options.signal?.throwIfAborted();
    const settled = isSettled(left);
    const settledIn = `${((performance.now() - settleStarted) / 1000).toFixed(1)} s`;
    options.progress(settled ? `settled after ${settledIn}` : `not settled after ${options.settleMs / 1000} s: ${describeLeft(left)}`);

    const verdicts = [
      {
        rule: "the work the load left settled",
        figure: settled ? `in ${settledIn}` : "no",
        notes: [],
        broken: settled ? [] : [`${describeLeft(left)} after ${options.settleMs / 1000} s`],
      },
      clientErrors(records, disruptions),
      ...(await run.audit(disruptions)),
    ];
    const latencies = records.map((record) => record.endedAt - record.startedAt).sort((a, b) => a - b);
    return {
      seconds,
      requests: records.length,
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
      disruptions: disruptions.map((disruption) => ({ ...disruption, at: disruption.at - started, ended: disruption.ended - started, until: disruption.until - started })),
      verdicts,
      cpu,
    };
  } finally {
    await run.stop();
  }
}
