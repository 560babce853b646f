import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createTestEnvironment, identityHeaders, spawnTypeScript } from "@tollgate/kit/testing";

describe("graceful shutdown", () => {
  it("lets a request in flight at SIGTERM finish, refuses new ones, then exits 0", async () => {
    const environment = await createTestEnvironment();
    const service = spawnTypeScript(fileURLToPath(new URL("./fixtures/demo-main.ts", import.meta.url)), {
      env: { ...environment.env, LOG_LEVEL: "info", PORT: "0", HOST: "127.0.0.1" },
    });
    try {
      const listening = await service.waitFor(/"msg":"demo is listening"/);
      const { port } = JSON.parse(listening) as { port: number };
      const url = `http://127.0.0.1:${port}`;

      const started = Date.now();
      const slow = fetch(`${url}/slow?ms=1500`, { headers: identityHeaders(environment) });
      await new Promise((resolve) => setTimeout(resolve, 300));
      service.child.kill("SIGTERM");
      await service.waitFor(/"msg":"shutting down"/);

      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
      const response = await slow;
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ waited: 1500 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(1500);

      expect(await service.exited).toEqual({ code: 0, signal: null });
      expect(service.output().stdout).toMatch(/"msg":"demo stopped"/);
    } finally {
      service.child.kill("SIGKILL");
    }
  });
});
