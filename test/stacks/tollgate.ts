import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";
import { createTestEnvironment, databaseUrl, watch, type SpawnedProcess, type TestEnvironment } from "@tollgate/kit/testing";
import { freePort } from "../../launcher/src/ports.js";

export const repository = fileURLToPath(new URL("../..", import.meta.url));

export interface RunningTollgate {
  url: string;
  environment: TestEnvironment;
  databaseUrl: string;
  process: SpawnedProcess;
  stop(): Promise<void>;
}

/** Marks that this test run has built the tree once: `npm start` did, and the files have not changed since. */
const builtMark = () => join(tmpdir(), `tollgate-built-${inject("tollgate").runId}`);

/**
 * Tollgate as the README starts it (`npm start`: build, migrate, every service and the gateway), on
 * the run's Postgres, NATS and Redis under names of its own, with `env` on top. The run's first stack
 * builds; later ones start the launcher on that build, as `npm start` does after building, which
 * spares each browser test file a minute of building the same tree again.
 */
export async function startTollgate(env: Record<string, string> = {}): Promise<RunningTollgate> {
  const environment = await createTestEnvironment();
  const port = await freePort();
  const database = databaseUrl(environment.databaseUrl, `${environment.name}_stack`);
  // As from a developer's shell: vitest's NODE_ENV=test would give the web build React's development bundle.
  const { NODE_ENV: _testMode, ...shell } = process.env;
  // npm start makes and keeps its own keys; the test environment's are for services a test starts itself.
  const { IDENTITY_VERIFY_KEYS: _testKeys, ...shared } = environment.env;
  const built = existsSync(builtMark());
  const stack = watch(
    spawn(built ? "node" : "npm", built ? ["launcher/dist/main.js"] : ["start"], {
      cwd: repository,
      detached: true,
      env: { ...shell, ...shared, DATABASE_URL: database, PORT: String(port), LOG_LEVEL: "warn", LOG_FORMAT: "json", ...env },
    }),
  );
  /** Signals npm's whole process group; false when it is already gone. */
  const signal = (name: NodeJS.Signals) => {
    try {
      return process.kill(-stack.child.pid!, name);
    } catch {
      return false;
    }
  };
  const stop = async () => {
    // Ctrl-C in a terminal signals the whole foreground group: npm and the launcher under it.
    if (stack.child.exitCode !== null || !signal("SIGINT")) return;
    const stopped = await Promise.race([stack.exited.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 30_000))]);
    if (!stopped) signal("SIGKILL");
  };
  try {
    await stack.waitFor(/Tollgate is ready at http:\/\/localhost:\d+/, 170_000);
    if (!built) writeFileSync(builtMark(), "");
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, environment, databaseUrl: database, process: stack, stop };
}
