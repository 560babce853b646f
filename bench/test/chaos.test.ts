import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestEnvironment, PrivateRedisServer, type TestEnvironment } from "@tollgate/kit/testing";
import { casesNamed } from "../chaos/cases.js";
import { runChaos } from "../chaos/run.js";

/**
 * `npm run chaos` in short: four of its cases, each with 2 s of load before a 2 s fault. Postgres is
 * the test run's (this version never restarts it); Redis is a server of the test's own, since one
 * case stops it.
 */
let environment: TestEnvironment;
let redis: PrivateRedisServer;

beforeAll(async () => {
  environment = await createTestEnvironment();
  redis = await PrivateRedisServer.start();
});

afterAll(async () => {
  await redis?.stop();
});

it("loses nothing and does nothing twice when billing is killed, NATS restarts, the webhook receiver fails and Redis goes down", { timeout: 240_000 }, async () => {
  const lines: string[] = [];
  const reports = await runChaos({
    cases: casesNamed(["kill billing#1", "restart nats-server", "receiver answers 500", "redis down"]),
    clients: 4,
    warmupMs: 2_000,
    faultMs: 2_000,
    // Three times the 10 s every case recovers within on a quiet machine: what a kill or a NATS restart
    // leaves comes back within 5 s (the consumers' ack wait, the leases a killed replica held).
    recoveryTimeoutMs: 30_000,
    databaseUrl: environment.databaseUrl,
    database: environment.name,
    natsPrefix: environment.natsPrefix,
    redis,
    redisPrefix: environment.redisPrefix,
    postgres: null,
    print: (line) => lines.push(line),
    // The few progress lines show where a slow run spent its time.
    progress: (line) => {
      lines.push(line);
      console.error(line);
    },
  });
  const broken = reports.flatMap((report) => report.verdicts.filter((verdict) => verdict.broken.length > 0).map((verdict) => ({ case: report.name, ...verdict })));
  expect(broken, `${JSON.stringify(broken, null, 2)}\n${lines.slice(-80).join("\n")}`).toEqual([]);
  expect(reports.map((report) => report.requests > 0)).toEqual([true, true, true, true]);
});
