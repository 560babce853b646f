import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IDENTITY_HEADER, SESSION_TOKEN_HEADER, STALE_SESSION_HEADER } from "@tollgate/proto";
import { createTestEnvironment, type Seen, type TestEnvironment } from "@tollgate/kit/testing";
import type { RunningGateway } from "../src/gateway.js";
import { startEchoGateway, startEchoUpstreams } from "./echo-gateway.js";

let environment: TestEnvironment;
let gateway: RunningGateway;
let upstreamServers: Server[] = [];

function webBuild(): string {
  const dist = mkdtempSync(path.join(tmpdir(), "tollgate-web-"));
  mkdirSync(path.join(dist, "assets"));
  writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>Tollgate</title><div id=root></div>");
  writeFileSync(path.join(dist, "assets", "app-1a2b3c.js"), "console.log('app')");
  return dist;
}

beforeAll(async () => {
  environment = await createTestEnvironment();
  const upstreams = await startEchoUpstreams(environment);
  upstreamServers = upstreams.servers;
  gateway = await startEchoGateway(environment, upstreams, { WEB_DIST: webBuild() });
});

afterAll(async () => {
  await gateway?.stop();
  for (const server of upstreamServers) server.close();
});

async function forwarded(pathname: string, init?: RequestInit): Promise<Seen> {
  const response = await fetch(`${gateway.url}${pathname}`, init);
  expect(response.status).toBe(200);
  return (await response.json()) as Seen;
}

describe("gateway routing", () => {
  it.each([
    ["/api/auth/organization/list?limit=5", "organization"],
    ["/api/auth/organization", "organization"],
    ["/api/auth/get-session", "auth"],
    ["/api/auth/organizations-are-not-a-prefix", "auth"],
    ["/v1/webhooks/endpoints?page=2", "webhook-dispatcher"],
    ["/v1/webhooks/set-aside-work/", "webhook-dispatcher"],
    ["/v1/products/", "billing"],
    ["/v1/webhooksx", "billing"],
  ])("sends %s to %s with the path unchanged", async (pathname, upstream) => {
    const seen = await forwarded(pathname);
    expect(seen).toMatchObject({ upstream, url: pathname, method: "GET" });
  });

  it("streams request bodies through", async () => {
    const body = JSON.stringify({ email: "ada@example.com", password: "correct horse battery staple" });
    const headers = { "content-type": "application/json", origin: "http://localhost:3000" };
    const seen = await forwarded("/api/auth/sign-in/email", { method: "POST", body, headers });
    expect(seen).toMatchObject({ upstream: "auth", method: "POST", body });
  });

  it("vouches for the caller with a signed identity token, dropping gateway-only headers the client sent", async () => {
    const forged = await forwarded("/api/auth/get-session", {
      headers: {
        [IDENTITY_HEADER]: "eyJhbGciOiJub25lIn0.eyJraW5kIjoidXNlciJ9.",
        [SESSION_TOKEN_HEADER]: "stolen-token",
        [STALE_SESSION_HEADER]: "1",
      },
    });
    expect(forged.identity).toEqual({ kind: "anonymous" });
    expect(forged.headers[SESSION_TOKEN_HEADER]).toBeUndefined();
    expect(forged.headers[STALE_SESSION_HEADER]).toBeUndefined();
  });

  it("treats a session cookie with a bad signature as stale, without asking anyone", async () => {
    const seen = await forwarded("/api/auth/get-session", { headers: { cookie: "better-auth.session_token=abc.forged%3D" } });
    expect(seen.identity).toEqual({ kind: "anonymous" });
    expect(seen.headers[STALE_SESSION_HEADER]).toBe("1");
  });

  it("carries the caller's request id to the upstream, or makes one", async () => {
    const given = await fetch(`${gateway.url}/api/auth/ok`, { headers: { "x-request-id": "trace-42" } });
    expect(given.headers.get("x-request-id")).toBe("trace-42");
    expect(((await given.json()) as Seen).headers["x-request-id"]).toBe("trace-42");

    const made = await fetch(`${gateway.url}/api/auth/ok`);
    const id = made.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(((await made.json()) as Seen).headers["x-request-id"]).toBe(id);
  });

  it("answers for an unreachable upstream in that API's error shape", async () => {
    const down = upstreamServers.map((server) => server.address() as AddressInfo);
    for (const server of upstreamServers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    const auth = await fetch(`${gateway.url}/api/auth/get-session`);
    expect(auth.status).toBe(502);
    expect(await auth.json()).toEqual({ code: "SERVICE_UNAVAILABLE", message: "the auth service is not answering; try again shortly" });
    const billing = await fetch(`${gateway.url}/v1/products/`);
    expect(billing.status).toBe(502);
    expect(await billing.json()).toEqual({ error: "ServiceUnavailable", detail: "the billing service is not answering; try again shortly" });
    // Bring them back on the same ports for the tests that follow.
    for (const [index, server] of upstreamServers.entries()) {
      await new Promise<void>((resolve) => server.listen(down[index]?.port, "127.0.0.1", resolve));
    }
  });

  it("lets go of an idle upstream connection before the upstream closes it, so none is reused as it closes", async () => {
    // An upstream that keeps idle connections 2 s (and says so in Keep-Alive), noting when each ends.
    const closedAfterMs: number[] = [];
    const upstream = createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
    upstream.keepAliveTimeout = 2_000;
    upstream.on("connection", (socket) => {
      const opened = Date.now();
      socket.on("close", () => closedAfterMs.push(Date.now() - opened));
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const own = await startEchoGateway(environment, { servers: [], env: { AUTH_URL: url, ORGANIZATION_URL: url, BILLING_URL: url, WEBHOOKS_URL: url } });
    try {
      expect((await fetch(`${own.url}/api/auth/ok`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1_600));
      // The gateway closed it a second before the upstream would have.
      expect(closedAfterMs).toHaveLength(1);
      expect(closedAfterMs[0]).toBeLessThan(2_000);
    } finally {
      await own.stop();
      upstream.close();
    }
  });
});

describe("gateway web app", () => {
  it("serves index.html for the root and for client-side routes", async () => {
    for (const pathname of ["/", "/organizations/acme/settings"]) {
      const response = await fetch(`${gateway.url}${pathname}`, { headers: { accept: "text/html" } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await response.text()).toContain("<div id=root>");
    }
  });

  it("serves hashed assets with long caching and 404s a missing file", async () => {
    const asset = await fetch(`${gateway.url}/assets/app-1a2b3c.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await fetch(`${gateway.url}/assets/gone-000.js`)).status).toBe(404);
    expect((await fetch(`${gateway.url}/favicon.ico`)).status).toBe(404);
  });

  it("answers health and readiness itself", async () => {
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${gateway.url}/readyz`);
    expect(await ready.json()).toEqual({ status: "ready", checks: { redis: "ok", nats: "ok" } });
  });
});
