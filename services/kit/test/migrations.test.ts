import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createDatabase, createLogger, loadServiceConfig, migrate, migrateService, pendingMigrations } from "@tollgate/kit";
import { createTestEnvironment, spawnTypeScript } from "@tollgate/kit/testing";
import { demoService } from "./fixtures/demo-service.js";

const logger = createLogger({ service: "migrations-test", level: "silent" });

describe("a release's migrations", () => {
  it("are pending until migrate has run, and reading them changes nothing", async () => {
    const environment = await createTestEnvironment();
    const config = loadServiceConfig(demoService, environment.env);
    const target = { url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA };

    expect(await pendingMigrations(target, demoService.migrations)).toEqual(["0000_kit_outbox_inbox", "0000_kit_outbox_envelope_json", "0000_kit_set_aside_work", "0001_things"]);
    const db = createDatabase({ ...target, poolMax: 1 });
    try {
      expect(await db("pg_namespace").where({ nspname: target.schema }).pluck("nspname")).toEqual([]);
    } finally {
      await db.destroy();
    }

    await migrateService(demoService, config, logger);
    expect(await pendingMigrations(target, demoService.migrations)).toEqual([]);
    // A later release knows one more; the rows an earlier release does not know mean nothing to it.
    const later = { ...demoService.migrations, "0002_more_things": { up: () => Promise.resolve() } };
    expect(await pendingMigrations(target, later)).toEqual(["0002_more_things"]);
  });

  it("of an earlier release still apply, as nothing, to a schema a later release has migrated further", async () => {
    const environment = await createTestEnvironment();
    const config = loadServiceConfig(demoService, environment.env);
    const later = { ...demoService.migrations, "0002_more_things": { up: () => Promise.resolve() } };
    await migrate({ url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA }, later);
    // A pod of the previous release restarting during a rollout, or a rollback.
    await expect(migrateService(demoService, config, logger)).resolves.toBeUndefined();
    expect(await pendingMigrations({ url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA }, demoService.migrations)).toEqual([]);
  });

  it("are waited for by the wait-for-migrations command, which exits 0 once the schema has them all", async () => {
    const environment = await createTestEnvironment();
    const waiting = spawnTypeScript(fileURLToPath(new URL("./fixtures/demo-main.ts", import.meta.url)), {
      args: ["wait-for-migrations"],
      env: { ...environment.env, LOG_LEVEL: "info" },
    });
    try {
      await waiting.waitFor(/"msg":"waiting for migrations"/);
      expect(waiting.child.exitCode).toBeNull();

      await migrateService(demoService, loadServiceConfig(demoService, environment.env), logger);
      expect(await waiting.exited).toEqual({ code: 0, signal: null });
      expect(waiting.output().stdout).toMatch(/"msg":"the schema has every migration of this release"/);
    } finally {
      waiting.child.kill("SIGKILL");
    }
  });

  it("are waited for while Postgres cannot be reached, rather than failing the pod", async () => {
    const environment = await createTestEnvironment();
    const waiting = spawnTypeScript(fileURLToPath(new URL("./fixtures/demo-main.ts", import.meta.url)), {
      args: ["wait-for-migrations"],
      env: { ...environment.env, LOG_LEVEL: "info", DATABASE_URL: "postgres://postgres@127.0.0.1:1/nowhere" },
    });
    try {
      await waiting.waitFor(/"msg":"cannot read the schema's migrations yet"/);
      expect(waiting.child.exitCode).toBeNull();
    } finally {
      waiting.child.kill("SIGKILL");
    }
  });
});
