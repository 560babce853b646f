import { describe, expect, it } from "vitest";
import { useShop } from "../stacks/purchases.js";
import type { BillingStack, Seller } from "../stacks/billing.js";
import { rawRequest } from "./attacker.js";

/**
 * Issue 28, finding 2: a seller's usage events must never stop anyone else's from being measured.
 * Numbers a meter could not add up are refused at the door; an event that fails to be measured all
 * the same is tried again, then set aside for its seller to see, while every other event is measured.
 */

let stack: BillingStack;

useShop((opened) => ({ stack } = opened));

const sumMeter = (seller: Seller, property: string) =>
  seller.polar.meters.create({ name: `Sum of ${property}`, filter: { conjunction: "and", clauses: [] }, aggregation: { func: "sum", property } });

const consumedBy = async (seller: Seller, customerId: string) => (await seller.polar.customerMeters.list({ customerId })).result.items.map((meter) => meter.consumedUnits);

const customerOf = (seller: Seller, name: string) => seller.polar.customers.create({ email: `${name}-${Date.now()}@example.com`, name });

interface SetAsideList {
  items: { id: string; worker: string; item_id: string; organization_id: string; reason: string; failures: number }[];
}

const setAsideFor = async (seller: Seller): Promise<SetAsideList> => {
  const answer = await rawRequest(stack.gateway.url, "/v1/set-aside-work/", { headers: { authorization: `Bearer ${seller.token}` } });
  expect(answer.status, answer.text).toBe(200);
  return JSON.parse(answer.text) as SetAsideList;
};

let refusals = 0;

/**
 * Makes Postgres refuse to write the customer meters `condition` (SQL over `new`, naming one seller's
 * rows) holds for, with `error`. No input gets past the door that measuring cannot store any more,
 * so a test provokes the failure this way. What it returns takes the refusal away.
 */
async function refuseCustomerMeters(condition: string, error: { message: string; code: string }): Promise<() => Promise<void>> {
  refusals += 1;
  const name = `refuse_customer_meters_${refusals}`;
  const { db } = stack.billing.context;
  await db.raw(`create function ${name}() returns trigger language plpgsql as $$
    begin
      if ${condition} then raise exception '${error.message}' using errcode = '${error.code}'; end if;
      return new;
    end $$`);
  await db.raw(`create trigger ${name} before insert or update on customer_meters for each row execute function ${name}()`);
  return async () => {
    await db.raw(`drop trigger ${name} on customer_meters`);
    await db.raw(`drop function ${name}()`);
  };
}

describe("#28.2 one seller's usage never stops another's from being measured", () => {
  it("refuses metadata numbers a meter could not add up, and makes text storable, at the door", async () => {
    const seller = await stack.seller();
    const customer = await customerOf(seller, "big");
    await sumMeter(seller, "n");
    const ingest = (metadata: Record<string, string | number>) => seller.polar.events.ingest({ events: [{ name: "big", customerId: customer.id, metadata }] });

    await expect(ingest({ n: 1e308 })).rejects.toMatchObject({
      statusCode: 422,
      detail: [{ loc: ["body", "events", 0, "metadata", "n"], msg: "Input should be less than or equal to 1e+289", type: "less_than_equal" }],
    });
    await expect(ingest({ n: -1e308 })).rejects.toMatchObject({ statusCode: 422, detail: [{ loc: ["body", "events", 0, "metadata", "n"], msg: "Input should be greater than or equal to -1e+289", type: "greater_than_equal" }] });
    await expect(ingest({ label: "a\u0000b" })).rejects.toMatchObject({ statusCode: 422, detail: [{ loc: ["body", "events", 0, "metadata", "label"] }] });

    // The largest numbers allowed still add up, as many times as a meter counts events.
    await ingest({ n: 1e289 });
    await ingest({ n: 1e289 });
    await expect.poll(() => consumedBy(seller, customer.id)).toEqual([2e289]);

    // A lone surrogate is stored as the replacement character, as text columns store it.
    await ingest({ label: "half \ud800 a pair" });
    const [stored] = (await seller.polar.events.list({ customerId: customer.id, sorting: ["-timestamp"], limit: 1 })).items;
    expect(stored?.metadata).toEqual({ label: "half \ufffd a pair" });
  });

  it("measures every other seller's events while one seller's failing event is set aside, listed for that seller alone", async () => {
    const [a, b] = [await stack.seller(), await stack.seller()];
    const [poisoned, good, ofB] = [await customerOf(a, "poisoned"), await customerOf(a, "good"), await customerOf(b, "b")];
    await sumMeter(a, "tokens");
    await sumMeter(b, "tokens");

    // Postgres refuses to change one of A's customer meters, as it refused a sum past float8's largest
    // before the door was shut.
    const allow = await refuseCustomerMeters(`new.customer_id = '${poisoned.id}'`, { message: "value out of range: overflow", code: "22003" });
    let listed: SetAsideList;
    try {
      await a.polar.events.ingest({
        events: [
          { name: "call", customerId: poisoned.id, metadata: { tokens: 5 } },
          { name: "call", customerId: good.id, metadata: { tokens: 7 } },
        ],
      });
      await b.polar.events.ingest({ events: [{ name: "call", customerId: ofB.id, metadata: { tokens: 3 } }] });

      await expect.poll(() => consumedBy(b, ofB.id), { timeout: 2_000 }).toEqual([3]);
      await expect.poll(() => consumedBy(a, good.id), { timeout: 2_000 }).toEqual([7]);
      const [poison] = (await a.polar.events.list({ customerId: poisoned.id })).items;
      await expect
        .poll(async () => (await setAsideFor(a)).items, { timeout: 5_000 })
        .toEqual([expect.objectContaining({ worker: "usage_measurement", item_id: poison?.id, organization_id: a.organizationId, reason: "value out of range: overflow", failures: 5 })]);
      listed = await setAsideFor(a);
      expect((await setAsideFor(b)).items).toEqual([]);
      expect(await consumedBy(a, poisoned.id)).toEqual([]);
    } finally {
      await allow();
    }

    // Its cause dealt with, seller A (and only A) sends it back, and it is measured.
    const retry = (seller: Seller) => rawRequest(stack.gateway.url, `/v1/set-aside-work/${listed.items[0]?.id}/retry`, { method: "POST", headers: { authorization: `Bearer ${seller.token}` } });
    expect((await retry(b)).status).toBe(404);
    expect((await retry(a)).status).toBe(202);
    await expect.poll(() => consumedBy(a, poisoned.id), { timeout: 2_000 }).toEqual([5]);
    expect((await setAsideFor(a)).items).toEqual([]);
  });

  it("measures an event that failed a few times once it passes, and forgets its failures", async () => {
    const seller = await stack.seller();
    const customer = await customerOf(seller, "flaky");
    await sumMeter(seller, "tokens");
    // Postgres refuses the customer's meter twice (a failure that goes away, such as a lock timeout), then takes it.
    const { db } = stack.billing.context;
    await db.raw("create sequence flaky_tries");
    const allow = await refuseCustomerMeters(`new.customer_id = '${customer.id}' and nextval('flaky_tries') <= 2`, { message: "canceling statement due to lock timeout", code: "55P03" });
    try {
      await seller.polar.events.ingest({ events: [{ name: "call", customerId: customer.id, metadata: { tokens: 4 } }] });
      await expect.poll(() => consumedBy(seller, customer.id), { timeout: 3_000 }).toEqual([4]);
    } finally {
      await allow();
      await db.raw("drop sequence flaky_tries");
    }
    expect((await setAsideFor(seller)).items).toEqual([]);
    await expect.poll(() => db("set_aside_work").where({ organization_id: seller.organizationId }).count<{ count: number }[]>({ count: "*" })).toEqual([{ count: 0 }]);
  });
});
