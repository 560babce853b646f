import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnvironment, startTestService, watch, type SpawnedProcess, type TestEnvironment } from "@tollgate/kit/testing";
import { freePort } from "../../../launcher/src/ports.js";
import { demoService } from "./fixtures/demo-service.js";

const NATS_SERVER = process.env.NATS_SERVER_PATH ?? "/usr/sbin/nats-server";

/** A NATS server of this test's own that lets no one in without credentials, as a production one should. */
async function startGuardedNats(auth: string[]): Promise<{ port: number; server: SpawnedProcess }> {
  const port = await freePort();
  const server = watch(spawn(NATS_SERVER, ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", mkdtempSync(path.join(tmpdir(), "tollgate-nats-")), ...auth]));
  await server.waitFor(/Server is ready/);
  return { port, server };
}

describe("NATS credentials (#15)", () => {
  let environment: TestEnvironment;
  let guarded: { port: number; server: SpawnedProcess };
  let tokenGuarded: { port: number; server: SpawnedProcess };

  beforeAll(async () => {
    environment = await createTestEnvironment();
    [guarded, tokenGuarded] = await Promise.all([startGuardedNats(["--user", "tollgate", "--pass", "bus password"]), startGuardedNats(["--auth", "bus-token-123"])]);
  });

  afterAll(() => {
    guarded?.server.child.kill();
    tokenGuarded?.server.child.kill();
  });

  it("connects with a user and password given in NATS_URL, and with a token given as its user", async () => {
    for (const url of [`nats://tollgate:bus%20password@127.0.0.1:${guarded.port}`, `nats://bus-token-123@127.0.0.1:${tokenGuarded.port}`]) {
      const service = await startTestService(demoService, environment, { NATS_URL: url });
      try {
        const ready = (await (await fetch(`${service.url}/readyz`)).json()) as { checks: Record<string, string> };
        expect(ready.checks.nats, url).toBe("ok");
      } finally {
        await service.stop();
      }
    }
  });

  it("stops at start without them, naming the server but never the password", async () => {
    await expect(startTestService(demoService, environment, { NATS_URL: `nats://127.0.0.1:${guarded.port}` })).rejects.toThrow(
      new RegExp(`cannot use NATS at nats://127\\.0\\.0\\.1:${guarded.port} \\(.*(auth|Authorization).*\\)`, "i"),
    );
    const wrong = startTestService(demoService, environment, { NATS_URL: `nats://tollgate:guessed@127.0.0.1:${guarded.port}` });
    await expect(wrong).rejects.toThrow(/nats:\/\/tollgate:\*\*\*@127\.0\.0\.1/);
  });
});
