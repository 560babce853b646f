import { describe, expect, it } from "vitest";
import type { BillingStack, Seller } from "../stacks/billing.js";
import { useShop } from "../stacks/purchases.js";
import { rawRequest, refusedPlaces, type RawAnswer, type RawRequest } from "./attacker.js";

/**
 * Values a request carries that Postgres cannot take — a year 0, a time zone only Node knows — and
 * event parents that belong to another seller, sent through the gateway as an attacker would.
 */

let stack: BillingStack;
let shop: Seller;

useShop((opened) => ({ stack, shop } = opened));

const send = (path: string, init?: RawRequest) => rawRequest(stack.gateway.url, path, { ...init, headers: { authorization: `Bearer ${shop.token}`, ...init?.headers } });

/** Each answer is Polar's 422 naming its place, never a 500. */
async function expectRefused(attempts: [Promise<RawAnswer>, (string | number)[]][]) {
  for (const [pending, place] of attempts) {
    const answer = await pending;
    expect(answer.status, answer.text).toBe(422);
    expect(refusedPlaces(answer), answer.text).toContainEqual(place);
  }
}

describe("#6 a value Postgres cannot hold is refused as Polar refuses it, never answered 500", () => {
  it("a timestamp in year 0, before or after it is moved to UTC, in events, metrics and meter quantities", async () => {
    const meter = await shop.polar.meters.create({ name: "Calls", filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "call" }] }, aggregation: { func: "count" } });
    const quantities = (start: string, end: string) =>
      send(`/v1/meters/${meter.id}/quantities?${new URLSearchParams({ start_timestamp: start, end_timestamp: end, interval: "day" }).toString()}`);
    await expectRefused([
      [send("/v1/events/ingest", { body: { events: [{ name: "call", external_customer_id: "c-1", timestamp: "0000-01-01T00:00:00Z" }] } }), ["body", "events", 0, "timestamp"]],
      [send("/v1/events/ingest", { body: { events: [{ name: "call", external_customer_id: "c-1", timestamp: "0001-01-01T00:00:00+01:00" }] } }), ["body", "events", 0, "timestamp"]],
      [send("/v1/events/?start_timestamp=0000-01-01T00:00:00Z"), ["query", "start_timestamp"]],
      [send("/v1/metrics/?start_date=0000-01-01&end_date=0000-01-02&interval=day"), ["query", "start_date"]],
      [send("/v1/metrics/?start_date=0000-01-01&end_date=0000-01-02&interval=day"), ["query", "end_date"]],
      [quantities("0000-01-01T00:00:00Z", "0000-01-02T00:00:00Z"), ["query", "start_timestamp"]],
      [quantities("2026-01-01T00:00:00Z", "0000-01-02T00:00:00Z"), ["query", "end_timestamp"]],
    ]);
    const refused = await send("/v1/events/ingest", { body: { events: [{ name: "call", external_customer_id: "c-1", timestamp: "0000-01-01T00:00:00Z" }] } });
    expect(JSON.parse(refused.text)).toEqual({
      detail: [{ loc: ["body", "events", 0, "timestamp"], msg: "Input should be a valid datetime, year 0 is out of range", type: "datetime_parsing", input: "0000-01-01T00:00:00Z" }],
    });
    // Year 1 stands, as it does for Polar, and is measured like any other.
    expect((await shop.polar.events.ingest({ events: [{ name: "call", externalCustomerId: "c-1", timestamp: new Date("0001-01-01T00:00:00Z") }] })).inserted).toBe(1);
    const firstDay = { id: meter.id, startTimestamp: new Date("0001-01-01T00:00:00Z"), endTimestamp: new Date("0001-01-01T12:00:00Z"), interval: "day" as const };
    await expect.poll(async () => (await shop.polar.meters.quantities(firstDay)).total, { timeout: 10_000 }).toBe(1);
  });

  it("a time zone Node knows and Postgres does not (US/Pacific-New)", async () => {
    const meter = await shop.polar.meters.create({ name: "Zoned", filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "zoned" }] }, aggregation: { func: "count" } });
    const zone = "US/Pacific-New";
    await expectRefused([
      [send(`/v1/metrics/?start_date=2026-01-01&end_date=2026-01-02&interval=day&timezone=${zone}`), ["query", "timezone"]],
      [send(`/v1/meters/${meter.id}/quantities?start_timestamp=2026-01-01T00:00:00Z&end_timestamp=2026-01-02T00:00:00Z&interval=day&timezone=${zone}`), ["query", "timezone"]],
    ]);
    // A zone both know, in any case, as Postgres and Node read one.
    expect((await send("/v1/metrics/?start_date=2026-01-01&end_date=2026-01-02&interval=day&timezone=us/pacific")).status).toBe(200);
  });
});

describe("#7 an event's parent is one of the seller's own events", () => {
  it("refuses another seller's event as a parent, by id or external id, and leaves its children uncounted", async () => {
    const rival = await stack.seller();
    await shop.polar.events.ingest({ events: [{ name: "root", externalCustomerId: "c-1", externalId: "shop-root" }] });
    const [root] = (await shop.polar.events.list({ name: "root" })).items;
    if (!root) throw new Error("the seller's event was not written");

    const asRival = (parentId: string) => rawRequest(stack.gateway.url, "/v1/events/ingest", { headers: { authorization: `Bearer ${rival.token}` }, body: { events: [{ name: "leech", external_customer_id: "c-9", parent_id: parentId }] } });
    for (const parentId of [root.id, "shop-root", "no-such-event"]) {
      const answer = await asRival(parentId);
      expect(answer.status, answer.text).toBe(422);
      expect(JSON.parse(answer.text)).toEqual({ detail: [{ loc: ["body", "events", 0, "parent_id"], msg: "Parent event not found.", type: "parent_id", input: parentId }] });
    }
    expect((await rival.polar.events.list({ name: "leech" })).items).toEqual([]);
    expect((await shop.polar.events.get({ id: root.id })).childCount).toBe(0);

    // The seller's own events are parents by id, by external id, and within the batch.
    await shop.polar.events.ingest({
      events: [
        { name: "step", externalCustomerId: "c-1", parentId: root.id },
        { name: "step", externalCustomerId: "c-1", parentId: "shop-root", externalId: "shop-step" },
        { name: "token", externalCustomerId: "c-1", parentId: "shop-step" },
      ],
    });
    expect((await shop.polar.events.get({ id: root.id })).childCount).toBe(2);
    const steps = (await shop.polar.events.list({ name: "step" })).items;
    expect(steps.map((step) => step.parentId)).toEqual([root.id, root.id]);
    const [token] = (await shop.polar.events.list({ name: "token" })).items;
    expect(steps.map((step) => step.id)).toContain(token?.parentId);
  });

  it("refuses a batch whose events would be their own ancestors", async () => {
    const answer = await send("/v1/events/ingest", {
      body: {
        events: [
          { name: "loop", external_customer_id: "c-1", external_id: "loop-a", parent_id: "loop-b" },
          { name: "loop", external_customer_id: "c-1", external_id: "loop-b", parent_id: "loop-a" },
        ],
      },
    });
    expect(answer.status, answer.text).toBe(422);
    expect(refusedPlaces(answer)).toEqual([
      ["body", "events", 0, "parent_id"],
      ["body", "events", 1, "parent_id"],
    ]);
  });
});
