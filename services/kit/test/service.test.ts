import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { betterAuthErrors, generateIdentityKeys, type RunningService, type ServiceConfig } from "@tollgate/kit";
import { createTestEnvironment, identityHeaders, startTestService, type TestEnvironment } from "@tollgate/kit/testing";
import { countThings, demoService } from "./fixtures/demo-service.js";

let environment: TestEnvironment;
let service: RunningService<ServiceConfig>;

beforeAll(async () => {
  environment = await createTestEnvironment();
  service = await startTestService(demoService, environment, { BODY_LIMIT: "2kb", METRICS_PORT: "0" });
});

afterAll(async () => {
  await service?.stop();
});

function call(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const { json, ...rest } = init;
  return fetch(`${service.url}${path}`, {
    ...rest,
    headers: { ...identityHeaders(environment), ...(json === undefined ? {} : { "content-type": "application/json" }), ...rest.headers },
    body: json === undefined ? rest.body : JSON.stringify(json),
  });
}

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("a service started from the kit", () => {
  it("answers health and readiness with every dependency it uses", async () => {
    const health = await fetch(`${service.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", checks: { postgres: "ok", nats: "ok", redis: "ok" } });
  });

  it("migrated its own schema, kit tables included", async () => {
    const tables = await service.context.db("pg_tables").where({ schemaname: "demo" }).pluck("tablename");
    expect(tables.sort()).toEqual(["dead_letters", "inbox", "migrations", "migrations_lock", "outbox", "seen_things", "set_aside_work", "things"]);
  });

  it("refuses requests that did not come through the gateway", async () => {
    const missing = await fetch(`${service.url}/things/1`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ error: "Unauthorized", detail: "requests must come through the Tollgate gateway" });
    // Signed with a key the service was not told about: anyone may make a key pair, only the gateway holds this one's.
    const forged = await fetch(`${service.url}/things/1`, { headers: identityHeaders({ identityKeys: generateIdentityKeys() }) });
    expect(forged.status).toBe(401);
  });

  it("hands the gateway's identity to the handler", async () => {
    const response = await fetch(`${service.url}/whoami`, {
      headers: identityHeaders(environment, { kind: "user", user_id: "u1", session_id: "s1" }),
    });
    expect(await response.json()).toEqual({ kind: "user", user_id: "u1", session_id: "s1" });
  });

  it("commits state and its event together; the relay publishes it and a consumer applies it", async () => {
    const created = await call("/things", { method: "POST", json: { name: "lamp", price: 1200 } });
    expect(created.status).toBe(201);
    const thing = (await created.json()) as { id: number };
    expect(thing).toEqual({ id: expect.any(Number) as number, name: "lamp", price: 1200 });
    await until(async () => (await service.context.request(countThings, { seen: true })).count === 1);
    expect(await service.context.db("seen_things").pluck("thing_id")).toEqual([thing.id]);
    const fetched = await call(`/things/${thing.id}`);
    expect(await fetched.json()).toEqual({ id: thing.id, name: "lamp", price: 1200 });
  });

  it("reports every invalid field in Polar's 422 shape and writes nothing", async () => {
    const before = (await service.context.request(countThings, { seen: false })).count;
    const response = await call("/things", { method: "POST", json: { name: "", price: 9.5 } });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      detail: [
        { loc: ["body", "name"], msg: "Too small: expected string to have >=1 characters", type: "too_small", input: "" },
        { loc: ["body", "price"], msg: "Invalid input: expected int, received number", type: "invalid_type", input: 9.5 },
      ],
    });
    const missing = await call("/things", { method: "POST", json: {} });
    expect(((await missing.json()) as { detail: { type: string }[] }).detail.map((issue) => issue.type)).toEqual(["missing", "missing"]);
    const params = await call("/things/abc");
    expect(((await params.json()) as { detail: { loc: unknown[] }[] }).detail[0]?.loc).toEqual(["path", "id"]);
    expect((await service.context.request(countThings, { seen: false })).count).toBe(before);
  });

  it("answers malformed JSON and oversized bodies in the contract's shape", async () => {
    const malformed = await call("/things", { method: "POST", headers: { "content-type": "application/json" }, body: "{name:" });
    expect(malformed.status).toBe(422);
    expect(await malformed.json()).toEqual({ detail: [{ loc: ["body"], msg: "Invalid JSON in request body", type: "json_invalid" }] });
    const polluting = await call("/things", { method: "POST", headers: { "content-type": "application/json" }, body: '{"name":"x","price":1,"__proto__":{"admin":true}}' });
    expect(polluting.status).toBe(422);
    expect(await polluting.json()).toEqual({ detail: [{ loc: ["body"], msg: "Potential prototype pollution attempt detected", type: "json_invalid" }] });
    const nested = await call("/things", { method: "POST", json: { name: "x", price: 1, meta: { constructor: { prototype: { admin: true } } } } });
    expect(nested.status).toBe(422);
    // However deep it is buried, and however deep the body nests.
    const buried = `{"name":"x","price":1,"meta":${'{"a":['.repeat(200)}{"__proto__":{"admin":true}}${"]}".repeat(200)}}`;
    expect((await call("/things", { method: "POST", headers: { "content-type": "application/json" }, body: buried })).status).toBe(422);
    const abyss = await call("/things", { method: "POST", headers: { "content-type": "application/json" }, body: "[".repeat(1000) + "]".repeat(1000) });
    expect(abyss.status).toBe(422);
    // JSON that is not an object is JSON all the same: the schema refuses it, as FastAPI's would.
    const scalar = await call("/things", { method: "POST", headers: { "content-type": "application/json" }, body: "42" });
    expect(await scalar.json()).toEqual({ detail: [{ loc: ["body"], msg: "Invalid input: expected object, received number", type: "invalid_type", input: 42 }] });
    const oversized = await call("/things", { method: "POST", json: { name: "x".repeat(4_000), price: 1 } });
    expect(oversized.status).toBe(413);
    expect(await oversized.json()).toEqual({ error: "PayloadTooLarge", detail: "request body is larger than 2048 bytes" });
  });

  it("answers an unexpected failure with 500, a reference and nothing internal", async () => {
    const response = await call("/boom", { headers: { "x-request-id": "req-boom-1" } });
    expect(response.status).toBe(500);
    expect(response.headers.get("x-request-id")).toBe("req-boom-1");
    expect(await response.json()).toEqual({ error: "InternalServerError", detail: "internal error; quote reference req-boom-1" });
  });

  it("answers a value Postgres cannot take (a year 0, a number in words) with Polar's 422, never a 500", async () => {
    const year0 = await call("/unchecked", { method: "POST", json: { moment: "0000-01-01T00:00:00Z" } });
    expect(year0.status).toBe(422);
    expect(await year0.json()).toEqual({ detail: [{ loc: ["body"], msg: "A date or time in the request is out of the range that can be stored", type: "datetime_field_overflow" }] });
    const words = await call("/unchecked", { method: "POST", json: { count: "twelve" } });
    expect(words.status).toBe(422);
    expect(await words.json()).toEqual({ detail: [{ loc: ["body"], msg: "A value in the request is not in the form its field takes", type: "invalid_text_representation" }] });
    expect(await (await call("/unchecked", { method: "POST", json: { moment: "2024-01-01T00:00:00Z", count: "12" } })).json()).toEqual({ stored: true });
  });

  it("answers unknown routes with 404 in the contract's shape", async () => {
    const response = await call("/nothing-here");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "ResourceNotFound", detail: "no route for GET /nothing-here" });
  });

  it("exposes request latency, outbox and consumer metrics on a port of their own, not the API's", async () => {
    await call("/things/1");
    expect((await call("/metrics")).status).toBe(404);
    const lines = (await (await fetch(service.metricsUrl ?? "")).text()).split("\n");
    /** The value of the sample of `name` carrying every one of `labels`, in any order. */
    const sample = (name: string, ...labels: string[]) =>
      Number(lines.find((line) => line.startsWith(`${name}{`) && labels.every((label) => line.includes(label)))?.split(" ").pop());
    expect(sample("http_request_duration_seconds_count", 'route="/things/:id"', 'status="200"', 'method="GET"')).toBeGreaterThan(0);
    expect(sample("outbox_pending_events", 'service="demo"')).toBe(0);
    expect(sample("outbox_published_events_total", 'service="demo"')).toBeGreaterThan(0);
    expect(sample("bus_consumer_events_total", 'consumer="demo-seen-things"', 'outcome="applied"')).toBeGreaterThan(0);
  });
});

describe("the better-auth error contract", () => {
  it("reports validation failures as 400 VALIDATION_ERROR with better-call's message", async () => {
    const other = await startTestService({ ...demoService, errors: betterAuthErrors }, environment, { DATABASE_SCHEMA: "demo_auth" });
    try {
      const response = await fetch(`${other.url}/things`, {
        method: "POST",
        headers: { ...identityHeaders(environment), "content-type": "application/json" },
        body: JSON.stringify({ price: -1 }),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        code: "VALIDATION_ERROR",
        message: "[body.name] Invalid input: expected string, received undefined; [body.price] Too small: expected number to be >=0",
      });
      const post = (body: string) =>
        fetch(`${other.url}/things`, { method: "POST", headers: { ...identityHeaders(environment), "content-type": "application/json" }, body });
      const invalid = await post("{oops");
      expect(invalid.status).toBe(400);
      expect(await invalid.json()).toEqual({ code: "BAD_REQUEST", message: "Invalid JSON in request body" });
      const polluting = await post('{"__proto__":{"role":"admin"}}');
      expect(polluting.status).toBe(400);
      expect(await polluting.json()).toEqual({ code: "BAD_REQUEST", message: "Potential prototype pollution attempt detected" });
      // better-call reads any JSON value and lets the schema judge it.
      const nothing = await post("null");
      expect(nothing.status).toBe(400);
      expect(await nothing.json()).toEqual({ code: "VALIDATION_ERROR", message: "[body] Invalid input: expected object, received null" });
      // A value Postgres cannot take is a validation error in better-auth's shape too.
      const unstorable = await fetch(`${other.url}/unchecked`, { method: "POST", headers: { ...identityHeaders(environment), "content-type": "application/json" }, body: JSON.stringify({ moment: "0000-01-01T00:00:00Z" }) });
      expect(unstorable.status).toBe(400);
      expect(await unstorable.json()).toEqual({ code: "VALIDATION_ERROR", message: "[body] A date or time in the request is out of the range that can be stored" });
    } finally {
      await other.stop();
    }
  });
});

describe("replicas", () => {
  it("start side by side on one schema, migrating it once", async () => {
    const replicas = await Promise.all([
      startTestService(demoService, environment, { DATABASE_SCHEMA: "demo_replicas" }),
      startTestService(demoService, environment, { DATABASE_SCHEMA: "demo_replicas" }),
    ]);
    try {
      const applied = await replicas[0].context.db("migrations").pluck("name");
      expect(applied).toEqual(["0000_kit_outbox_inbox", "0000_kit_outbox_envelope_json", "0000_kit_set_aside_work", "0001_things"]);
      for (const replica of replicas) expect((await fetch(`${replica.url}/readyz`)).status).toBe(200);
    } finally {
      await Promise.all(replicas.map((replica) => replica.stop()));
    }
  });
});
