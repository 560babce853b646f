import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectBus, signCookieValue, type BusConnection } from "@tollgate/kit";
import { captureLogs, createTestEnvironment, type Seen, type TestEnvironment } from "@tollgate/kit/testing";
import type { RunningGateway } from "../src/gateway.js";
import { digest, LIVE_TOKEN, sessionOf, standInAuthAndBilling, startEchoGateway, startEchoUpstreams, type EchoUpstreams } from "./echo-gateway.js";

/**
 * The gateway's cache holds who a credential belongs to, in a Redis that other processes may reach.
 * Only entries the gateway sealed are believed; anything else written there is a miss, and the
 * service that knows (stood in for here) is asked.
 */
const SITE = "http://localhost:3000";
const AUTH_SECRET = "a".repeat(43);
const TTL_SECONDS = 3;

let environment: TestEnvironment;
let upstreams: EchoUpstreams;
let gateway: RunningGateway;
let bus: BusConnection;
/** Redis as anything else that can reach it sees it: keys in full, no sealing key. */
let redis: Redis;
let logs: ReturnType<typeof captureLogs>;
/** What the stand-ins for auth and billing were asked, by token digest. */
let asked: string[] = [];
/** Tokens billing has since deleted. */
const revoked = new Set<string>();

beforeAll(async () => {
  environment = await createTestEnvironment();
  upstreams = await startEchoUpstreams(environment);
  bus = await connectBus({ url: environment.natsUrl, prefix: environment.natsPrefix, name: "cache-test" });
  const live = [digest("polar_oat_live"), digest("polar_oat_other")];
  standInAuthAndBilling(bus, (tokenHash) => asked.push(tokenHash), {
    session: (tokenHash) => (tokenHash === digest("mallory-session") ? sessionOf("mallory", "session-of-mallory") : null),
    token: (tokenHash) => (live.includes(tokenHash) && !revoked.has(tokenHash) ? LIVE_TOKEN : null),
  });
  logs = captureLogs();
  gateway = await startEchoGateway(environment, upstreams, { AUTH_SECRET, SESSION_CACHE_TTL_SECONDS: String(TTL_SECONDS) });
  redis = new Redis(environment.redisUrl);
});

afterAll(async () => {
  logs?.stop();
  redis?.disconnect();
  await gateway?.stop();
  for (const server of upstreams?.servers ?? []) server.close();
  await bus?.nc.close();
});

beforeEach(() => {
  asked = [];
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const withSession = (token: string) => ({ cookie: `better-auth.session_token=${signCookieValue(token, AUTH_SECRET)}` });
const entryKey = (kind: "bearer" | "session", token: string) => `${environment.redisPrefix}${kind}:${digest(token)}`;

async function send(path: string, headers: Record<string, string>): Promise<{ status: number; seen: Seen | null }> {
  const response = await fetch(`${gateway.url}${path}`, { headers: { origin: SITE, ...headers } });
  const text = await response.text();
  return { status: response.status, seen: response.status === 200 ? (JSON.parse(text) as Seen) : null };
}

/** The entry the gateway cached for a token it has just resolved. */
async function cachedEntry(kind: "bearer" | "session", token: string): Promise<string> {
  const entry = await redis.get(entryKey(kind, token));
  if (entry === null) throw new Error(`nothing cached for ${token}`);
  return entry;
}

describe("an entry the gateway sealed", () => {
  it("answers for its own token, without asking billing again", async () => {
    expect((await send("/v1/products/", bearer("polar_oat_live"))).seen?.identity).toMatchObject({ token_id: "token-1" });
    expect((await send("/v1/products/", bearer("polar_oat_live"))).seen?.identity).toMatchObject({ token_id: "token-1" });
    expect(asked).toEqual([digest("polar_oat_live")]);
  });

  it("opens nothing under another token's key", async () => {
    await send("/v1/products/", bearer("polar_oat_live"));
    await redis.set(entryKey("bearer", "polar_oat_made_up"), await cachedEntry("bearer", "polar_oat_live"));
    expect((await send("/v1/products/", bearer("polar_oat_made_up"))).status).toBe(401);
    expect(asked).toContain(digest("polar_oat_made_up"));
  });

  it("opens nothing once put back after it expired, though its MAC is right", async () => {
    await send("/v1/products/", bearer("polar_oat_other"));
    const entry = await cachedEntry("bearer", "polar_oat_other");
    revoked.add(digest("polar_oat_other"));
    await new Promise((resolve) => setTimeout(resolve, TTL_SECONDS * 1000 + 100));
    await redis.set(entryKey("bearer", "polar_oat_other"), entry);
    expect((await send("/v1/products/", bearer("polar_oat_other"))).status).toBe(401);
  });
});

describe("an entry the gateway did not seal is a miss", () => {
  it("a forged identity for a made-up token (as entries were written before sealing): refused, billing asked", async () => {
    await redis.set(entryKey("bearer", "polar_oat_forged"), JSON.stringify({ kind: "organization_token", token: { ...LIVE_TOKEN, id: "forged", organization_id: "victim" } }));
    expect((await send("/v1/products/", bearer("polar_oat_forged"))).status).toBe(401);
    expect(asked).toEqual([digest("polar_oat_forged")]);
  });

  it("a sealed entry with its identity changed: the token is billing's answer again, cached anew", async () => {
    await send("/v1/products/", bearer("polar_oat_live"));
    const entry = await cachedEntry("bearer", "polar_oat_live");
    await redis.set(entryKey("bearer", "polar_oat_live"), entry.replace('"org-1"', '"victim"'));
    expect((await send("/v1/products/", bearer("polar_oat_live"))).seen?.identity).toMatchObject({ organization_id: "org-1" });
    expect(asked).toContain(digest("polar_oat_live"));
    expect(await cachedEntry("bearer", "polar_oat_live")).not.toContain('"victim"');
  });

  it("a sealed entry with its MAC changed: billing asked", async () => {
    await send("/v1/products/", bearer("polar_oat_live"));
    const [, expiresAt, mac = "", value] = /^(\d+)\.([^.]+)\.(.*)$/s.exec(await cachedEntry("bearer", "polar_oat_live")) ?? [];
    const tampered = `${mac.startsWith("A") ? "B" : "A"}${mac.slice(1)}`;
    await redis.set(entryKey("bearer", "polar_oat_live"), `${expiresAt}.${tampered}.${value}`);
    asked = [];
    expect((await send("/v1/products/", bearer("polar_oat_live"))).seen?.identity).toMatchObject({ token_id: "token-1" });
    expect(asked).toEqual([digest("polar_oat_live")]);
  });

  it("a signed-in user's own session entry rewritten to name another user: still their own session", async () => {
    await send("/api/auth/organization/list", withSession("mallory-session"));
    await redis.set(entryKey("session", "mallory-session"), JSON.stringify(sessionOf("victim", "session-of-victim")));
    const seen = (await send("/api/auth/organization/list", withSession("mallory-session"))).seen;
    expect(seen?.identity).toEqual({ kind: "user", user_id: "mallory", session_id: "session-of-mallory" });
  });

  it("is reported at warn, now and then rather than once per entry", () => {
    const warnings = logs.lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((line) => line.level === 40 && line.msg.includes("MAC"));
    expect(warnings).toHaveLength(1);
  });
});
