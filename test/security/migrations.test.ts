import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { createTestEnvironment, watch } from "@tollgate/kit/testing";
import { repository } from "../stacks/tollgate.js";

/**
 * A migration runs with more rights on the database than anything else, in a Job of its own; it
 * must need nothing else, so that its pod (k8s/base/migrations.yaml) can be given no secret.
 */

const SERVICES = ["auth", "organization", "billing", "webhook-dispatcher"];

/** `node services/<service>/dist/main.js migrate` as a migration Job runs it, from source, with exactly `env`. */
function migrate(service: string, env: Record<string, string>) {
  return watch(
    spawn(process.execPath, ["--conditions=development", "--import", "tsx", `services/${service}/src/main.ts`, "migrate"], {
      cwd: repository,
      env: { PATH: process.env.PATH ?? "", ...env },
    }),
  );
}

describe("round 2 #8 the migrations hold no secret", () => {
  it("migrates every service's schema given the database alone: no AUTH_SECRET, signing keys or sealing keys", { timeout: 60_000 }, async () => {
    const environment = await createTestEnvironment();
    const runs = SERVICES.map((service) => ({ service, run: migrate(service, { DATABASE_URL: environment.databaseUrl, LOG_LEVEL: "info" }) }));
    for (const { service, run } of runs) {
      const { code } = await run.exited;
      expect(code, `${service}: ${run.output().stderr}`).toBe(0);
      expect(run.output().stdout, service).toMatch(/"msg":"migrations applied"/);
    }
  });
});
