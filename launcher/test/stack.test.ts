import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createTestEnvironment, databaseUrl, spawnTypeScript, watch } from "@tollgate/kit/testing";
import { freePort } from "../src/ports.js";

const repository = fileURLToPath(new URL("../..", import.meta.url));

describe("npm start", () => {
  it("migrates and runs every service behind the gateway, then stops them all on Ctrl-C", { timeout: 180_000 }, async () => {
    const environment = await createTestEnvironment();
    const port = await freePort();
    // A database that does not exist yet: the launcher creates it.
    const database = `${environment.name}_stack`;
    const stack = watch(
      spawn("npm", ["start"], {
        cwd: repository,
        detached: true,
        env: {
          ...process.env,
          ...environment.env,
          DATABASE_URL: databaseUrl(environment.databaseUrl, database),
          PORT: String(port),
          LOG_LEVEL: "info",
          LOG_FORMAT: "json",
        },
      }),
    );
    const gatewayUrl = `http://127.0.0.1:${port}`;
    try {
      await stack.waitFor(/Tollgate is ready at http:\/\/localhost:\d+/, 150_000);

      expect((await fetch(`${gatewayUrl}/healthz`)).status).toBe(200);
      const listening = JSON.parse(await stack.waitFor(/"msg":"gateway is listening"/)) as { upstreams: Record<string, string> };
      const services = Object.values(listening.upstreams);
      expect(services).toHaveLength(4);
      for (const service of services) {
        const ready = await fetch(`${service}/readyz`);
        expect(ready.status).toBe(200);
        // Every service checks Postgres and NATS; one that keeps state in Redis checks that too.
        const readiness = (await ready.json()) as { status: string; checks: Record<string, string> };
        expect(readiness.status).toBe("ready");
        expect(readiness.checks).toMatchObject({ postgres: "ok", nats: "ok" });
        expect(Object.values(readiness.checks).every((check) => check === "ok")).toBe(true);
      }

      const page = await fetch(`${gatewayUrl}/organizations`, { headers: { accept: "text/html" } });
      const html = await page.text();
      expect(html).toContain('<div id="root"></div>');
      expect(html).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js">/);
      // Reaching a service's own 404 proves the route and that it accepted the gateway's identity token.
      const auth = await fetch(`${gatewayUrl}/api/auth/no-such-endpoint`);
      expect(auth.status).toBe(404);
      expect(await auth.json()).toEqual({ code: "NOT_FOUND", message: "no route for GET /api/auth/no-such-endpoint" });
      const billing = await fetch(`${gatewayUrl}/v1/no-such-resource/`);
      expect(await billing.json()).toEqual({ error: "ResourceNotFound", detail: "no route for GET /v1/no-such-resource/" });

      // Ctrl-C in a terminal signals the whole foreground group: npm and the launcher under it.
      process.kill(-stack.child.pid!, "SIGINT");
      await stack.waitFor(/tollgate\s*│.*INFO.*: stopped$/);
      expect(stack.output().stdout).not.toMatch(/exited unexpectedly|stopped with exit code/);
      for (const url of [gatewayUrl, ...services]) await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    } finally {
      if (stack.child.exitCode === null) {
        try {
          process.kill(-stack.child.pid!, "SIGKILL");
        } catch {
          // The group is already gone.
        }
      }
    }
  });

  it("refuses to start when a dependency is missing, naming it and how to start it", async () => {
    const launcher = spawnTypeScript(fileURLToPath(new URL("../src/main.ts", import.meta.url)), {
      env: { NATS_URL: "nats://127.0.0.1:1", REDIS_URL: "redis://127.0.0.1:2" },
    });
    expect((await launcher.exited).code).toBe(1);
    const { stderr } = launcher.output();
    expect(stderr).toContain("tollgate: cannot start:");
    expect(stderr).toMatch(/cannot use NATS at nats:\/\/127\.0\.0\.1:1 \(.+\); start nats-server with JetStream \(-js\) or set NATS_URL/);
    expect(stderr).toMatch(/cannot use Redis at redis:\/\/127\.0\.0\.1:2 \(.+\); start redis-server or set REDIS_URL/);
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});
