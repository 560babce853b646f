import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createTestEnvironment, spawnTypeScript, type SpawnedProcess } from "@tollgate/kit/testing";
import { freePort } from "../src/ports.js";

const LAUNCHER = fileURLToPath(new URL("../src/main.ts", import.meta.url));
const SERVICES = ["auth", "organization", "billing", "webhook-dispatcher"];

let launcher: SpawnedProcess | undefined;

afterAll(() => {
  // Ctrl-C's path is the test's own; this is for a test that failed half-way.
  if (launcher?.child.exitCode === null) launcher.child.kill("SIGINT");
});

/** Every `<name> started (pid N) at URL` line the launcher printed, the latest of each name last. */
function startedLines(output: string): { name: string; pid: number; url: string }[] {
  return [...output.matchAll(/(\S+) started \(pid (\d+)\) at (http:\S+)/g)].map(([, name = "", pid = "", url = ""]) => ({ name, pid: Number(pid), url }));
}

describe("npm start -- --replicas 2", () => {
  it("runs two processes of each service behind the gateway, and starts a killed one again while the gateway stays", { timeout: 180_000 }, async () => {
    const environment = await createTestEnvironment();
    const port = await freePort();
    // From source, as `npm start` runs from its build: the launcher's children inherit how it was run.
    launcher = spawnTypeScript(LAUNCHER, {
      args: ["start", "--replicas", "2"],
      env: {
        ...environment.env,
        // Every secret given, so the developer's .tollgate/secrets.json is neither read nor written.
        AUTH_SECRET: randomBytes(32).toString("base64url"),
        IDENTITY_SIGNING_KEY: environment.identityKeys.signingKey,
        FILE_URL_SECRET: randomBytes(32).toString("base64url"),
        WEBHOOK_SECRET_KEYS: `test:${randomBytes(32).toString("base64")}`,
        PORT: String(port),
        LOG_LEVEL: "info",
        LOG_FORMAT: "json",
      },
    });
    await launcher.waitFor(/Tollgate is ready at/, 150_000);
    const { stdout } = launcher.output();

    const started = startedLines(stdout);
    expect(started.map((line) => line.name).sort()).toEqual([...SERVICES.flatMap((name) => [`${name}#1`, `${name}#2`]), "gateway"].sort());
    expect(new Set(started.map((line) => line.url)).size).toBe(started.length);
    // Each replica's own lines carry its name; the gateway balances over both URLs of each service.
    for (const name of ["billing#1", "billing#2"]) expect(stdout).toMatch(new RegExp(`"replica":"${name}".*"msg":"billing is listening"`));
    const listening = JSON.parse(await launcher.waitFor(/"msg":"gateway is listening"/)) as { upstreams: Record<string, string> };
    const billingUrls = started.filter((line) => line.name.startsWith("billing#")).map((line) => line.url);
    expect(listening.upstreams["/v1"]?.split(",").sort()).toEqual(billingUrls.sort());

    const gateway = started.find((line) => line.name === "gateway");
    const doomed = started.find((line) => line.name === "billing#2");
    if (!gateway || !doomed) throw new Error("no gateway or billing#2 line");
    process.kill(doomed.pid, "SIGKILL");
    await launcher.waitFor(/billing#2 exited unexpectedly \(signal SIGKILL\); starting it again in 1 s/);
    // Billing answers through the gateway all along: the other replica takes the requests.
    const products = await fetch(`http://127.0.0.1:${port}/v1/products/`);
    expect(products.status).toBe(401);
    await launcher.waitFor(/billing#2 is ready again/, 60_000);
    // Started again on the same port, so the gateway's list stays right.
    const again = startedLines(launcher.output().stdout).filter((line) => line.name === "billing#2").at(-1);
    expect(again?.url).toBe(doomed.url);
    expect(again?.pid).not.toBe(doomed.pid);
    expect(startedLines(launcher.output().stdout).filter((line) => line.name === "gateway")).toEqual([gateway]);
    expect((await fetch(`${doomed.url}/readyz`)).status).toBe(200);

    launcher.child.kill("SIGINT");
    expect((await launcher.exited).code).toBe(0);
    for (const { url } of started) await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });
});
