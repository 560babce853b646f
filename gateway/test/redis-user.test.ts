import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { userBanned } from "@tollgate/proto";
import { connectBus, signCookieValue, type BusConnection } from "@tollgate/kit";
import { createTestEnvironment, PrivateRedisServer, type TestEnvironment } from "@tollgate/kit/testing";
import { composeRedisArguments } from "../../test/compose.js";
import type { RunningGateway } from "../src/gateway.js";
import { digest, standInAuthAndBilling, startEchoGateway, startEchoUpstreams, type EchoUpstreams } from "./echo-gateway.js";

/**
 * The gateway on a Redis that lets it in only as the `gateway` user docker-compose.yml defines (k8s
 * defines the same): everything it does there, caching, forgetting and counting, is within that
 * user's keys and commands.
 */
const SITE = "http://localhost:3000";
const AUTH_SECRET = "a".repeat(43);
const PASSWORDS = { REDIS_GATEWAY_PASSWORD: "g".repeat(48), REDIS_BILLING_PASSWORD: "b".repeat(48) };

let environment: TestEnvironment;
let redis: PrivateRedisServer;
let upstreams: EchoUpstreams;
let gateway: RunningGateway;
let bus: BusConnection;
const asked: string[] = [];
/** Redis as the `gateway` user reaches it. */
let gatewayUrl: string;

beforeAll(async () => {
  environment = await createTestEnvironment();
  redis = await PrivateRedisServer.start(composeRedisArguments(PASSWORDS));
  upstreams = await startEchoUpstreams(environment);
  bus = await connectBus({ url: environment.natsUrl, prefix: environment.natsPrefix, name: "redis-user-test" });
  standInAuthAndBilling(bus, (tokenHash) => asked.push(tokenHash));
  gatewayUrl = redis.url.replace("redis://", `redis://gateway:${PASSWORDS.REDIS_GATEWAY_PASSWORD}@`);
  // The keys the `gateway` user may touch are tollgate:'s, the prefix every deployment runs with.
  gateway = await startEchoGateway(environment, upstreams, { REDIS_URL: gatewayUrl, REDIS_PREFIX: "tollgate:", AUTH_SECRET, RATE_LIMIT_ENABLED: "true" });
});

afterAll(async () => {
  await gateway?.stop();
  for (const server of upstreams?.servers ?? []) server.close();
  await bus?.nc.close();
  await redis?.stop();
});

const withSession = { cookie: `better-auth.session_token=${signCookieValue("live-session", AUTH_SECRET)}` };
const send = (path: string, headers: Record<string, string>, method = "GET") =>
  fetch(`${gateway.url}${path}`, { method, headers: { origin: SITE, "content-type": "application/json", ...headers }, body: method === "GET" ? undefined : "{}" });

it("caches, forgets and counts as that user, with nothing refused", async () => {
  for (let attempt = 0; attempt < 2; attempt++) {
    expect((await send("/v1/products/", { authorization: "Bearer polar_oat_live" })).status).toBe(200);
    expect((await send("/api/auth/organization/list", withSession)).status).toBe(200);
  }
  expect(asked).toEqual([digest("polar_oat_live"), digest("live-session")]);
  // A change through auth drops the session's entry; a ban drops every entry of the user.
  expect((await send("/api/auth/update-user", withSession, "POST")).status).toBe(200);
  await send("/api/auth/organization/list", withSession);
  expect(asked.filter((hash) => hash === digest("live-session"))).toHaveLength(2);
  const ban = { id: randomUUID(), type: userBanned.type, occurred_at: new Date().toISOString(), source: "auth", data: { id: "user-1", reason: null, expires_at: null } };
  await bus.js.publish(bus.names.eventSubject(userBanned.type), JSON.stringify(ban), { msgID: ban.id });
  await expect.poll(async () => (await send("/api/auth/organization/list", withSession), asked.filter((hash) => hash === digest("live-session")).length)).toBeGreaterThan(2);
  const statuses = [];
  for (let attempt = 0; attempt < 4; attempt++) statuses.push((await send("/api/auth/sign-in/email", {}, "POST")).status);
  expect(statuses).toEqual([200, 200, 200, 429]);

  const asGateway = new Redis(gatewayUrl);
  const errors = await asGateway.info("errorstats");
  const commands = await asGateway.info("commandstats");
  asGateway.disconnect();
  expect(errors).not.toMatch(/NOPERM/);
  expect(commands).not.toMatch(/rejected_calls=[1-9]/);
  expect(commands).toMatch(/cmdstat_smembers:calls=[1-9]/);
  expect(commands).toMatch(/cmdstat_evalsha:calls=[1-9]/);
});
