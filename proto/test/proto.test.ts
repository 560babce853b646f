import { describe, expect, it } from "vitest";
import { z } from "zod";
import { busNames, defineEvent, EventEnvelope } from "@tollgate/proto";

describe("event envelope", () => {
  const envelope = {
    id: "0b9f1c4e-7d1a-4f55-9a33-2f6f1f0d8c11",
    type: "order.created",
    occurred_at: "2026-11-22T14:00:00.000+00:00",
    source: "billing",
    data: { id: "ord_1" },
  };

  it("accepts envelopes from a later release that carry fields it does not know", () => {
    expect(EventEnvelope.parse({ ...envelope, trace_id: "abc" })).toEqual(envelope);
  });

  it("requires an offset on occurred_at and a dotted type", () => {
    expect(EventEnvelope.safeParse({ ...envelope, occurred_at: "2026-11-22T14:00:00" }).success).toBe(false);
    expect(EventEnvelope.safeParse({ ...envelope, type: "ordercreated" }).success).toBe(false);
  });

  it("refuses to define an event whose type could not be a subject", () => {
    expect(() => defineEvent("order created", z.object({}))).toThrow();
    expect(defineEvent("order.created", z.object({})).type).toBe("order.created");
  });
});

describe("bus names", () => {
  it("derives every stream and subject from one prefix", () => {
    const names = busNames("tollgate");
    expect(names.eventStream).toBe("tollgate_events");
    expect(names.allEvents).toBe("tollgate.events.>");
    expect(names.eventSubject("order.created")).toBe("tollgate.events.order.created");
    expect(names.requestSubject("auth.session.get")).toBe("tollgate.rpc.auth.session.get");
  });

  it("rejects a prefix that would break subjects or stream names", () => {
    expect(() => busNames("my.app")).toThrow(/lower-case letters, digits and underscores/);
  });
});
