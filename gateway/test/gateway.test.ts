import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IDENTITY_HEADER } from "@tollgate/proto";
import { createLogger, verifyIdentity } from "@tollgate/kit";
import { createTestEnvironment, type TestEnvironment } from "@tollgate/kit/testing";
import { loadGatewayConfig } from "../src/config.js";
import { startGateway, type RunningGateway } from "../src/gateway.js";

/** What an upstream saw of a forwarded request. */
interface Seen {
  upstream: string;
  method: string;
  url: string;
  identity: unknown;
  requestId: string | undefined;
  body: string;
}

const UPSTREAMS = ["auth", "organization", "billing", "webhook-dispatcher"] as const;

let environment: TestEnvironment;
let gateway: RunningGateway;
const upstreamServers: Server[] = [];

/** A real HTTP peer standing in for a service: it answers with what it received. */
async function echoUpstream(name: string, secret: string): Promise<string> {
  const server = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const token = req.headers[IDENTITY_HEADER];
      const seen: Seen = {
        upstream: name,
        method: req.method ?? "",
        url: req.url ?? "",
        identity: typeof token === "string" ? verifyIdentity(token, secret) : null,
        requestId: req.headers["x-request-id"] as string | undefined,
        body,
      };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(seen));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  upstreamServers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function webBuild(): string {
  const dist = mkdtempSync(path.join(tmpdir(), "tollgate-web-"));
  mkdirSync(path.join(dist, "assets"));
  writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>Tollgate</title><div id=root></div>");
  writeFileSync(path.join(dist, "assets", "app-1a2b3c.js"), "console.log('app')");
  return dist;
}

beforeAll(async () => {
  environment = await createTestEnvironment();
  const [auth, organization, billing, webhooks] = await Promise.all(UPSTREAMS.map((name) => echoUpstream(name, environment.identitySecret)));
  const config = loadGatewayConfig({
    ...environment.env,
    PORT: "0",
    HOST: "127.0.0.1",
    AUTH_URL: auth,
    ORGANIZATION_URL: organization,
    BILLING_URL: billing,
    WEBHOOKS_URL: webhooks,
    WEB_DIST: webBuild(),
  });
  gateway = await startGateway(config, createLogger({ service: "gateway", level: "silent" }));
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
    ["/v1/products/", "billing"],
    ["/v1/webhooksx", "billing"],
  ])("sends %s to %s with the path unchanged", async (pathname, upstream) => {
    const seen = await forwarded(pathname);
    expect(seen).toMatchObject({ upstream, url: pathname, method: "GET" });
  });

  it("streams request bodies through", async () => {
    const body = JSON.stringify({ email: "ada@example.com", password: "correct horse battery staple" });
    const seen = await forwarded("/api/auth/sign-in/email", { method: "POST", body, headers: { "content-type": "application/json" } });
    expect(seen).toMatchObject({ upstream: "auth", method: "POST", body });
  });

  it("vouches for the caller with a signed identity token, replacing any the client sent", async () => {
    const forged = await forwarded("/v1/products/", {
      headers: { [IDENTITY_HEADER]: "eyJhbGciOiJub25lIn0.eyJraW5kIjoidXNlciJ9." },
    });
    expect(forged.identity).toEqual({ kind: "anonymous" });
  });

  it("carries the caller's request id to the upstream, or makes one", async () => {
    const given = await fetch(`${gateway.url}/api/auth/ok`, { headers: { "x-request-id": "trace-42" } });
    expect(given.headers.get("x-request-id")).toBe("trace-42");
    expect(((await given.json()) as Seen).requestId).toBe("trace-42");

    const made = await fetch(`${gateway.url}/api/auth/ok`);
    const id = made.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(((await made.json()) as Seen).requestId).toBe(id);
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
    expect(await ready.json()).toEqual({ status: "ready", checks: { redis: "ok" } });
  });
});
