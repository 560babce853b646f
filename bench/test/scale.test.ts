import { expect, it } from "vitest";
import { createTestEnvironment } from "@tollgate/kit/testing";
import { runScenario } from "../scale/scenario.js";

/**
 * `npm run bench:scale` in short: two replicas of every service under the mixed load for 12 s, one
 * replica of each service killed in turn and NATS restarted once; every rule must hold.
 */
it("keeps every rule with two replicas of everything while one of each is killed and NATS restarts", { timeout: 240_000 }, async () => {
  const environment = await createTestEnvironment();
  const lines: string[] = [];
  const report = await runScenario({
    seconds: 12,
    clients: 4,
    databaseUrl: environment.databaseUrl,
    database: environment.name,
    natsPrefix: environment.natsPrefix,
    redisUrl: environment.redisUrl,
    redisPrefix: environment.redisPrefix,
    // Long enough for what a kill leaves to come back: events a killed consumer held (30 s), deliveries a killed dispatcher held.
    settleMs: 60_000,
    print: (line) => lines.push(line),
    // The few progress lines show where a slow run spent its time.
    progress: (line) => {
      lines.push(line);
      console.error(line);
    },
  });
  const broken = report.verdicts.filter((verdict) => verdict.broken.length > 0);
  expect(broken, `${JSON.stringify(broken, null, 2)}\n${lines.slice(-80).join("\n")}`).toEqual([]);
  expect(report.requests).toBeGreaterThan(0);
});
