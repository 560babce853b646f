import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { betterAuthErrors, defineService, type RunningService } from "@tollgate/kit";
import { createTestEnvironment, spawnTypeScript, startTestService, type SpawnedProcess, type TestEnvironment } from "@tollgate/kit/testing";
import { freePort } from "../../launcher/src/ports.js";
import type { RunningGateway } from "../src/gateway.js";
import { REPLAYABLE_BODY_BYTES } from "../src/proxy.js";
import { startEchoGateway } from "./echo-gateway.js";

let environment: TestEnvironment;
/** What each test started, stopped after it. */
const started: { gateways: RunningGateway[]; servers: Server[]; processes: SpawnedProcess[]; services: RunningService<unknown>[] } = { gateways: [], servers: [], processes: [], services: [] };

beforeAll(async () => {
  environment = await createTestEnvironment();
});

afterEach(async () => {
  for (const gateway of started.gateways.splice(0)) await gateway.stop();
  for (const service of started.services.splice(0)) await service.stop();
  for (const server of started.servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
  for (const replica of started.processes.splice(0)) replica.child.kill("SIGKILL");
});

afterAll(() => {
  for (const replica of started.processes) replica.child.kill("SIGKILL");
});

interface Answer {
  replica: string;
  method: string;
  body: string;
}

/**
 * A replica in this process: it answers /readyz with 200 and everything else with its name and what
 * it was sent, unless `handle` answers first (returning true).
 */
async function replica(name: string, handle?: (req: IncomingMessage, res: ServerResponse) => boolean): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    if (req.url === "/readyz") {
      res.writeHead(200).end("{}");
      return;
    }
    seen.push(`${req.method} ${req.url}`);
    if (handle?.(req, res)) return;
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const answer: Answer = { replica: name, method: req.method ?? "", body: Buffer.concat(chunks).toString() };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  started.servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** A gateway whose auth upstream is `urls`; readiness checks only when a test asks for them. */
async function gatewayTo(urls: string[], env: Record<string, string> = {}): Promise<RunningGateway> {
  const list = urls.join(",");
  const gateway = await startEchoGateway(
    environment,
    { servers: [], env: { AUTH_URL: list, ORGANIZATION_URL: list, BILLING_URL: list, WEBHOOKS_URL: list } },
    { RATE_LIMIT_ENABLED: "false", UPSTREAM_CHECK_INTERVAL_MS: "60000", ...env },
  );
  started.gateways.push(gateway);
  return gateway;
}

const send = (gateway: RunningGateway, method: string, body?: string) =>
  fetch(`${gateway.url}/api/auth/replica-test`, { method, body, headers: body === undefined ? {} : { "content-type": "application/json", origin: "http://localhost:3000" } });

/** A port nothing listens on: connections to it are refused. */
const refusingUrl = async () => `http://127.0.0.1:${await freePort()}`;

describe("an upstream with several replicas", () => {
  it("sends each request to the replica with the fewest requests in progress", async () => {
    let releaseHeld = () => {};
    const held = new Promise<void>((resolve) => (releaseHeld = resolve));
    const slow = await replica("slow", (_req, res) => {
      void held.then(() => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ replica: "slow" })));
      return true;
    });
    const quick = await replica("quick");
    const gateway = await gatewayTo([slow.url, quick.url]);
    const first = send(gateway, "GET");
    await expect.poll(() => slow.seen.length).toBe(1);
    const others = [];
    for (let request = 0; request < 4; request++) others.push(((await (await send(gateway, "GET")).json()) as Answer).replica);
    expect(others).toEqual(["quick", "quick", "quick", "quick"]);
    releaseHeld();
    expect((await first).status).toBe(200);
  });

  it("takes turns with UPSTREAM_BALANCING=round-robin", async () => {
    const [a, b] = await Promise.all([replica("a"), replica("b")]);
    const gateway = await gatewayTo([a.url, b.url], { UPSTREAM_BALANCING: "round-robin" });
    const order = [];
    for (let request = 0; request < 4; request++) order.push(((await (await send(gateway, "GET")).json()) as Answer).replica);
    expect(order).toEqual(["a", "b", "a", "b"]);
  });

  it("sends a POST whose connection was refused to another replica, body and all", async () => {
    const alive = await replica("alive");
    const gateway = await gatewayTo([await refusingUrl(), alive.url], { UPSTREAM_BALANCING: "round-robin", UPSTREAM_EJECT_MS: "0" });
    const body = JSON.stringify({ name: "Ada", padding: "x".repeat(10_000) });
    const response = await send(gateway, "POST", body);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ replica: "alive", method: "POST", body });
    // A body too large to keep is streamed, so it cannot be sent again: the refusal is the client's answer.
    const large = await send(gateway, "POST", JSON.stringify({ padding: "x".repeat(REPLAYABLE_BODY_BYTES) }));
    expect(large.status).toBe(502);
    expect(await large.json()).toEqual({ code: "SERVICE_UNAVAILABLE", message: "the auth service is not answering; try again shortly" });
    expect(alive.seen).toEqual(["POST /api/auth/replica-test"]);
  });

  it("sends a GET cut off before any answer to another replica, but not a POST, which may have been acted on", async () => {
    const cutting = await replica("cutting", (req) => {
      req.socket.destroy();
      return true;
    });
    const alive = await replica("alive");
    const gateway = await gatewayTo([cutting.url, alive.url], { UPSTREAM_BALANCING: "round-robin", UPSTREAM_EJECT_MS: "0" });
    const get = await send(gateway, "GET");
    expect(get.status).toBe(200);
    expect(((await get.json()) as Answer).replica).toBe("alive");
    const post = await send(gateway, "POST", "{}");
    expect(post.status).toBe(502);
    expect(cutting.seen).toEqual(["GET /api/auth/replica-test", "POST /api/auth/replica-test"]);
    expect(alive.seen).toEqual(["GET /api/auth/replica-test"]);
  });

  it("passes over a replica that refused a connection for a while", async () => {
    const alive = await replica("alive");
    const gateway = await gatewayTo([await refusingUrl(), alive.url], { UPSTREAM_BALANCING: "round-robin" });
    const answered = [];
    for (let request = 0; request < 4; request++) answered.push(((await (await send(gateway, "POST", "{}")).json()) as Answer).replica);
    expect(answered).toEqual(["alive", "alive", "alive", "alive"]);
  });

  it("routes only to replicas whose /readyz answers 200, once it has asked them", async () => {
    const unready = createServer((req, res) => res.writeHead(req.url === "/readyz" ? 503 : 200, { "content-type": "application/json" }).end(JSON.stringify({ replica: "unready" })));
    await new Promise<void>((resolve) => unready.listen(0, "127.0.0.1", resolve));
    started.servers.push(unready);
    const ready = await replica("ready");
    const gateway = await gatewayTo([`http://127.0.0.1:${(unready.address() as AddressInfo).port}`, ready.url], { UPSTREAM_CHECK_INTERVAL_MS: "100" });
    const fourInARow = async () => {
      const replicas = [];
      for (let request = 0; request < 4; request++) replicas.push(((await (await send(gateway, "GET")).json()) as Answer).replica);
      return replicas;
    };
    await expect.poll(fourInARow, { timeout: 10_000 }).toEqual(["ready", "ready", "ready", "ready"]);
  });

  it("loses no new request when a replica process is killed", { timeout: 60_000 }, async () => {
    const entry = fileURLToPath(new URL("./replica-process.ts", import.meta.url));
    const processes = ["doomed", "survivor"].map((name) => spawnTypeScript(entry, { env: { REPLICA_NAME: name } }));
    started.processes.push(...processes);
    const urls = await Promise.all(processes.map(async (replica) => /(http:\S+)/.exec(await replica.waitFor(/listening on http:/))?.[1] ?? ""));
    // Neither passed over after a refusal nor checked: every request that picks the dead replica is retried.
    const gateway = await gatewayTo(urls, { UPSTREAM_EJECT_MS: "0" });
    const [doomed] = processes;
    if (!doomed) throw new Error("no replica to kill");

    let killedAt: number | null = null;
    const afterKill: { status: number; replica: string }[] = [];
    let answeredByDoomed = 0;
    let running = true;
    // Several clients at once, each alternating a GET and a small POST.
    const clients = Array.from({ length: 4 }, async (_, client) => {
      for (let round = 0; running; round++) {
        const startedAt = performance.now();
        const response = await send(gateway, round % 2 === 0 ? "GET" : "POST", round % 2 === 0 ? undefined : JSON.stringify({ client, round })).catch(() => null);
        const replicaName = response?.status === 200 ? ((await response.json()) as Answer).replica : "";
        if (replicaName === "doomed") answeredByDoomed += 1;
        if (killedAt !== null && startedAt > killedAt) afterKill.push({ status: response?.status ?? 0, replica: replicaName });
      }
    });
    await expect.poll(() => answeredByDoomed).toBeGreaterThan(10);
    doomed.child.kill("SIGKILL");
    await doomed.exited;
    killedAt = performance.now();
    await expect.poll(() => afterKill.length, { timeout: 20_000 }).toBeGreaterThan(100);
    running = false;
    await Promise.all(clients);
    expect(afterKill.filter((request) => request.status !== 200)).toEqual([]);
    expect(new Set(afterKill.map((request) => request.replica))).toEqual(new Set(["survivor"]));
  });

  it("loses nothing while a replica drains on SIGTERM: it says it is not ready, then closes", { timeout: 60_000 }, async () => {
    // Two replicas of a service built on the kit, in this process, answering POSTs.
    const definition = defineService({
      name: "drained",
      schema: "drained",
      defaultPort: 0,
      errors: betterAuthErrors,
      migrations: {},
      routes(router) {
        router.post("/api/auth/replica-test", (_req, res) => {
          res.json({ ok: true });
        });
      },
    });
    const replicas = [];
    for (let index = 0; index < 2; index++) replicas.push(await startTestService(definition, environment, { SHUTDOWN_DRAIN_MS: "1500" }));
    const [draining, staying] = replicas;
    if (!draining || !staying) throw new Error("replicas did not start");
    started.services.push(staying);
    const gateway = await gatewayTo([draining.url, staying.url], { UPSTREAM_CHECK_INTERVAL_MS: "200" });

    const statuses = new Map<number, number>();
    let running = true;
    const clients = Array.from({ length: 4 }, async () => {
      while (running) {
        const status = await send(gateway, "POST", "{}").then((response) => response.status, () => 0);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    });
    await expect.poll(() => statuses.get(200) ?? 0).toBeGreaterThan(20);
    // As runProgram does on SIGTERM: while it drains, it still answers, saying it is not ready.
    const stopped = draining.stop();
    expect((await fetch(`${draining.url}/readyz`)).status).toBe(503);
    await stopped;
    const before = statuses.get(200) ?? 0;
    await expect.poll(() => (statuses.get(200) ?? 0) - before).toBeGreaterThan(20);
    running = false;
    await Promise.all(clients);
    expect([...statuses.keys()]).toEqual([200]);
  });
});

describe("one URL in front of several pods", () => {
  it("opens a new connection now and then, so that pods added since get requests too", async () => {
    let connections = 0;
    const upstream = createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
    upstream.on("connection", () => (connections += 1));
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    started.servers.push(upstream);
    const gateway = await gatewayTo([`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`], { UPSTREAM_CONNECTION_MAX_AGE_MS: "1000" });
    // One request at a time, so that without a maximum age one connection would carry them all.
    const until = performance.now() + 2_500;
    while (performance.now() < until) expect((await send(gateway, "GET")).status).toBe(200);
    expect(connections).toBeGreaterThanOrEqual(2);
  });
});
