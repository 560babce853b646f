import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as proto from "@tollgate/proto";
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

describe("who may say what on the bus", () => {
  // Every event definition proto exports, alone or in a collection (billing's).
  const events = (Object.values(proto) as unknown[]).flatMap((value) => [value, ...(typeof value === "object" && value !== null ? (Object.values(value) as unknown[]) : [])]).filter(isEvent);
  const requests = (Object.values(proto) as unknown[]).filter(isRequest);

  it("gives every event one owner, by the family its type begins with, and each family to one process", () => {
    expect(events.length).toBeGreaterThan(40);
    for (const event of events) expect(proto.ownerOfEvent(event.type), event.type).toBeDefined();
    const families = proto.BUS_PROCESSES.flatMap((process) => proto.BUS_ACCESS[process].events);
    expect(new Set(families).size).toBe(families.length);
    expect(proto.ownerOfEvent("member.added")).toBe("organization");
    expect(proto.ownerOfEvent("billing.organization.updated")).toBe("billing");
    expect(proto.ownerOfEvent("test.item_created")).toBeUndefined();
  });

  it("has each request answered by the one process its name begins with, and sent only by others", () => {
    for (const request of requests) {
      const servers = proto.BUS_PROCESSES.filter((process) => (proto.BUS_ACCESS[process].serves as readonly proto.RequestDefinition[]).includes(request));
      expect(servers, request.name).toEqual([request.name.split(".")[0]]);
    }
    for (const process of proto.BUS_PROCESSES) for (const request of proto.BUS_ACCESS[process].calls) expect(requests, `${process} calls ${request.name}`).toContain(request);
  });

  it("believes an owned event only on its own subject and from its owner", () => {
    const names = busNames("tollgate");
    const added = { type: "member.added", source: "organization" };
    expect(proto.eventProvenanceProblem(names, "tollgate.events.member.added", added)).toBeNull();
    expect(proto.eventProvenanceProblem(names, "tollgate.events.billing.member.added", added)).toBe(
      "member.added is organization's event and arrived on tollgate.events.billing.member.added, not on organization's subject tollgate.events.member.added",
    );
    expect(proto.eventProvenanceProblem(names, "tollgate.events.member.added", { ...added, source: "billing" })).toBe("member.added is organization's event but names billing as its source");
    expect(proto.eventProvenanceProblem(names, "tollgate.events.anything", { type: "test.item_created", source: "test" })).toBeNull();
  });
});

function isEvent(value: unknown): value is proto.EventDefinition {
  return typeof value === "object" && value !== null && "type" in value && "data" in value && typeof value.type === "string";
}

function isRequest(value: unknown): value is proto.RequestDefinition {
  return typeof value === "object" && value !== null && "request" in value && "response" in value && "name" in value;
}
