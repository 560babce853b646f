import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectBus, signCookieValue, type BusConnection } from "@tollgate/kit";
import { createTestEnvironment, PrivateRedisServer, type Seen, type TestEnvironment } from "@tollgate/kit/testing";
import type { RunningGateway } from "../src/gateway.js";
import { digest, standInAuthAndBilling, startEchoGateway, startEchoUpstreams, type EchoUpstreams } from "./echo-gateway.js";

/**
 * The gateway on a redis-server of the test's own, which it stops: sessions and access tokens are
 * then resolved by the services that know them (never taken on trust), and rate limits are counted
 * in each replica's memory.
 */
const SITE = "http://localhost:3000";
const AUTH_SECRET = "a".repeat(43);

let environment: TestEnvironment;
let redis: PrivateRedisServer;
let upstreams: EchoUpstreams;
let gateway: RunningGateway;
let bus: BusConnection;
/** What the stand-ins for auth and billing were asked, by token digest. */
let asked: string[] = [];

beforeAll(async () => {
  environment = await createTestEnvironment();
  redis = await PrivateRedisServer.start();
  upstreams = await startEchoUpstreams(environment);
  bus = await connectBus({ url: environment.natsUrl, prefix: environment.natsPrefix, name: "redis-down-test" });
  standInAuthAndBilling(bus, (tokenHash) => asked.push(tokenHash));
  gateway = await startEchoGateway(environment, upstreams, { REDIS_URL: redis.url, AUTH_SECRET, RATE_LIMIT_ENABLED: "true" });
});

afterAll(async () => {
  await gateway?.stop();
  for (const server of upstreams?.servers ?? []) server.close();
  await bus?.nc.close();
  await redis?.stop();
});

beforeEach(() => {
  asked = [];
});

const withSession = (token: string) => ({ cookie: `better-auth.session_token=${signCookieValue(token, AUTH_SECRET)}` });

async function send(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<{ status: number; seen: Seen | null }> {
  const response = await fetch(`${gateway.url}${path}`, { method, headers: { origin: SITE, "content-type": "application/json", ...headers }, body: method === "GET" ? undefined : "{}" });
  const text = await response.text();
  // The echo upstreams answer with what they were sent; anything else is the gateway's own answer.
  return { status: response.status, seen: response.status === 200 ? (JSON.parse(text) as Seen) : null };
}

async function untilReady(): Promise<void> {
  while (((await (await fetch(`${gateway.url}/readyz`)).json()) as { status: string }).status !== "ready") await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("while Redis is down", () => {
  beforeAll(() => redis.halt());
  afterAll(async () => {
    await redis.resume();
    await untilReady();
  });

  it("stays ready, saying it is degraded, so that a balancer keeps sending it requests", async () => {
    const readyz = await fetch(`${gateway.url}/readyz`);
    expect(readyz.status).toBe(200);
    expect(await readyz.json()).toMatchObject({ status: "degraded", checks: { nats: "ok" } });
  });

  it("asks auth for every session, so a live one is the user's and any other is anonymous", async () => {
    const live = await send("/api/auth/organization/list", withSession("live-session"));
    expect(live.seen?.identity).toEqual({ kind: "user", user_id: "user-1", session_id: "session-1" });
    const revoked = await send("/api/auth/organization/list", withSession("revoked-session"));
    expect(revoked.seen?.identity).toEqual({ kind: "anonymous" });
    const forged = await send("/api/auth/organization/list", { cookie: "better-auth.session_token=live-session.forged" });
    expect(forged.seen?.identity).toEqual({ kind: "anonymous" });
    // Nothing cached meanwhile: the live session was asked for again.
    await send("/api/auth/organization/list", withSession("live-session"));
    expect(asked.filter((hash) => hash === digest("live-session"))).toHaveLength(2);
  });

  it("asks billing for every access token, refusing one it does not know", async () => {
    const live = await send("/v1/products/", { authorization: "Bearer polar_oat_live" });
    expect(live.seen?.identity).toEqual({ kind: "organization_token", token_id: "token-1", organization_id: "org-1", scopes: ["products:read"] });
    const unknown = await send("/v1/products/", { authorization: "Bearer polar_oat_deleted" });
    expect(unknown.status).toBe(401);
  });

  it("lets a signed-in user change what auth holds, with nothing cached to drop", async () => {
    const update = await send("/api/auth/update-user", withSession("live-session"), "POST");
    expect(update.seen).toMatchObject({ upstream: "auth", identity: { kind: "user", user_id: "user-1" } });
  });

  it("still refuses the fourth sign-in of a client within 10 s, counting in the gateway's memory", async () => {
    const statuses = [];
    for (let attempt = 0; attempt < 4; attempt++) statuses.push((await send("/api/auth/sign-in/username", {}, "POST")).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe("once Redis is back", () => {
  it("caches sessions and counts rate limits in Redis again", async () => {
    await send("/api/auth/organization/list", withSession("live-session"));
    await send("/api/auth/organization/list", withSession("live-session"));
    expect(asked).toEqual([digest("live-session")]);
    // Redis came back empty: the count starts again there.
    const statuses = [];
    for (let attempt = 0; attempt < 4; attempt++) statuses.push((await send("/api/auth/sign-in/email", {}, "POST")).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
