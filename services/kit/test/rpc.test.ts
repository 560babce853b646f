import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRequest } from "@tollgate/proto";
import { BusRequestError, connectBus, createLogger, RemoteError, ReplyError, request, respond, type BusConnection } from "@tollgate/kit";
import { createTestEnvironment } from "@tollgate/kit/testing";

const getUser = defineRequest("test.user.get", {
  request: z.object({ id: z.string().min(1) }),
  response: z.object({ id: z.string(), email: z.email() }),
});
const logger = createLogger({ service: "rpc-test", level: "silent" });

let bus: BusConnection;

beforeAll(async () => {
  const environment = await createTestEnvironment();
  bus = await connectBus({ url: environment.natsUrl, prefix: environment.natsPrefix, name: "rpc-test" });
});

afterAll(async () => {
  await bus?.nc.close();
});

describe("request/reply", () => {
  it("round-trips a request validated on both sides", async () => {
    const subscription = respond(bus, getUser, { queue: "users", logger }, ({ id }) =>
      Promise.resolve({ id, email: `${id}@example.com` }),
    );
    try {
      await expect(request(bus, getUser, { id: "u1" })).resolves.toEqual({ id: "u1", email: "u1@example.com" });
    } finally {
      subscription.unsubscribe();
    }
  });

  it("fails clearly when no service answers the request", async () => {
    const failure = request(bus, getUser, { id: "u1" }, { timeoutMs: 500 });
    await expect(failure).rejects.toBeInstanceOf(BusRequestError);
    await expect(failure).rejects.toThrow("request test.user.get failed: no service is answering it");
  });

  it("sends a request nobody was there to take again while its time lasts, as when responders reconnect after a NATS restart", async () => {
    const answered = request(bus, getUser, { id: "u2" }, { timeoutMs: 2_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const subscription = respond(bus, getUser, { queue: "users", logger }, ({ id }) => Promise.resolve({ id, email: `${id}@example.com` }));
    try {
      await expect(answered).resolves.toEqual({ id: "u2", email: "u2@example.com" });
    } finally {
      subscription.unsubscribe();
    }
  });

  it("times out with a clear error when the responder is too slow", async () => {
    const subscription = respond(bus, getUser, { queue: "users", logger }, async ({ id }) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      return { id, email: "late@example.com" };
    });
    try {
      const failure = request(bus, getUser, { id: "u1" }, { timeoutMs: 200 });
      await expect(failure).rejects.toMatchObject({ reason: "timeout" });
      await expect(failure).rejects.toThrow("request test.user.get got no reply within 200 ms");
    } finally {
      subscription.unsubscribe();
    }
  });

  it("refuses to send a request that does not match its schema", async () => {
    await expect(request(bus, getUser, { id: "" })).rejects.toThrow(z.ZodError);
  });

  it("answers a malformed request with BAD_REQUEST instead of calling the handler", async () => {
    let called = false;
    const subscription = respond(bus, getUser, { queue: "users", logger }, ({ id }) => {
      called = true;
      return Promise.resolve({ id, email: "x@example.com" });
    });
    try {
      const reply = await bus.nc.request(bus.names.requestSubject(getUser.name), JSON.stringify({ id: 42 }));
      expect(reply.json()).toMatchObject({ ok: false, error: { code: "BAD_REQUEST" } });
      expect(called).toBe(false);
    } finally {
      subscription.unsubscribe();
    }
  });

  it("passes the responder's own error code back to the caller", async () => {
    const subscription = respond(bus, getUser, { queue: "users", logger }, () =>
      Promise.reject(new ReplyError("NOT_FOUND", "no user u404")),
    );
    try {
      const failure = request(bus, getUser, { id: "u404" });
      await expect(failure).rejects.toBeInstanceOf(RemoteError);
      await expect(failure).rejects.toMatchObject({ code: "NOT_FOUND", message: "no user u404" });
    } finally {
      subscription.unsubscribe();
    }
  });

  it("does not leak a responder's internal failure, and rejects a reply outside the schema", async () => {
    const crashing = respond(bus, getUser, { queue: "users", logger }, () => Promise.reject(new Error("password=hunter2 in a stack")));
    try {
      const failure = request(bus, getUser, { id: "u1" });
      await expect(failure).rejects.toMatchObject({ code: "INTERNAL", message: "test.user.get failed inside the responder" });
    } finally {
      crashing.unsubscribe();
    }

    const wrongShape = bus.nc.subscribe(bus.names.requestSubject(getUser.name), {
      callback: (_error, message) => {
        message.respond(JSON.stringify({ ok: true, data: { id: "u1", email: "not-an-email" } }));
      },
    });
    try {
      await expect(request(bus, getUser, { id: "u1" })).rejects.toMatchObject({ reason: "invalid_reply" });
    } finally {
      wrongShape.unsubscribe();
    }
  });
});
