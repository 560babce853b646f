import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { connectRedis, createHttpApp, createLogger, listen, Metrics, polarErrors } from "@tollgate/kit";
import { PrivateRedisServer } from "@tollgate/kit/testing";
import { idempotency } from "../src/http/idempotency.js";

/** What billing keeps in Redis (Idempotency-Key answers) on a redis-server of the test's own, which it stops. */
let redisServer: PrivateRedisServer;
let redis: Redis;
let server: Server;
let base: string;
let writes = 0;

beforeAll(async () => {
  redisServer = await PrivateRedisServer.start();
  redis = await connectRedis(redisServer.url, "idempotency-test:");
  const logger = createLogger({ service: "test", level: "silent" });
  const app = createHttpApp({ logger, metrics: new Metrics("test"), errors: polarErrors, isShuttingDown: () => false, readiness: {} }, (app) => {
    app.use(express.json());
    app.use(idempotency(redis, 60));
    app.post("/v1/refunds/", (_req, res) => {
      writes += 1;
      res.status(201).json({ id: `refund-${writes}` });
    });
  });
  server = await listen(app, 0, "127.0.0.1");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.close();
  redis?.disconnect();
  await redisServer?.stop();
});

const refund = (headers: Record<string, string> = {}) => fetch(`${base}/v1/refunds/`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ amount: 500 }) });

it("refuses a write with a key while Redis is down (503, nothing done) and does it once when retried after", async () => {
  await redisServer.halt();
  const refused = await refund({ "idempotency-key": "refund-1" });
  expect(refused.status).toBe(503);
  expect(await refused.json()).toMatchObject({ error: "ServiceUnavailable" });
  expect(writes).toBe(0);
  // A write without a key asks for no guarantee, and needs no Redis.
  expect((await refund()).status).toBe(201);
  expect(writes).toBe(1);

  await redisServer.resume();
  let first = await refund({ "idempotency-key": "refund-1" });
  while (first.status === 503) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    first = await refund({ "idempotency-key": "refund-1" });
  }
  const again = await refund({ "idempotency-key": "refund-1" });
  expect([first.status, again.status]).toEqual([201, 201]);
  expect(again.headers.get("idempotent-replayed")).toBe("true");
  expect(writes).toBe(2);
});
