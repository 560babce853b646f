import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Seller } from "../stacks/billing.js";
import { startDispatcherStack, type DispatcherStack } from "../stacks/dispatcher.js";
import { WebhookReceiver } from "../stacks/receiver.js";
import { rawRequest } from "./attacker.js";

/**
 * Issue 28 #1: one seller's webhook receiver answered 200 with a body Postgres cannot store (NUL,
 * invalid UTF-8); recording that attempt failed, the dispatcher kept the failed batch and never
 * claimed anything again, and every other seller's webhooks stayed pending. Another seller's events
 * must go out within seconds whatever one seller's endpoint answers, and an attempt that still
 * cannot be recorded is set aside for its seller alone.
 */
let stack: DispatcherStack;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  stack = await startDispatcherStack();
});

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
});

afterAll(async () => {
  await stack?.stop();
});

/** A new seller with an endpoint wanting `customer.created`, at a receiver of its own. */
async function sellerWithEndpoint() {
  const seller = await stack.seller();
  const receiver = await new WebhookReceiver().start();
  receivers.push(receiver);
  const endpoint = await seller.polar.webhooks.createWebhookEndpoint({ url: receiver.url, format: "raw", events: ["customer.created"] });
  receiver.secrets = [endpoint.secret];
  return { seller, receiver, endpoint };
}

/** The seller's attempts at the endpoint, oldest first, as its delivery log shows them. */
async function attempts(seller: Seller, endpointId: string) {
  const { result } = await seller.polar.webhooks.listWebhookDeliveries({ endpointId });
  return result.items.reverse().map((attempt) => ({ succeeded: attempt.succeeded, httpCode: attempt.httpCode, response: attempt.response, eventSucceeded: attempt.webhookEvent.succeeded }));
}

/** The seller's set-aside work, through the public API. */
async function setAsideWork(seller: Seller): Promise<Record<string, unknown>[]> {
  const answer = await rawRequest(stack.gateway.url, "/v1/webhooks/set-aside-work/", { headers: { authorization: `Bearer ${seller.token}` } });
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.text) as { items: Record<string, unknown>[] }).items;
}

const retry = (seller: Seller, id: string) => rawRequest(stack.gateway.url, `/v1/webhooks/set-aside-work/${id}/retry`, { method: "POST", body: {}, headers: { authorization: `Bearer ${seller.token}` } });

/**
 * Makes Postgres refuse the dispatcher's new rows of `table` that match `condition` (SQL over `new`,
 * naming one seller's rows) with `message`, as it refuses a value it cannot store.
 */
async function refuseRows(table: string, condition: string, message: string): Promise<void> {
  const { db } = stack.webhooks.context;
  const name = `refuse_${randomUUID().replaceAll("-", "")}`;
  await db.raw(`create function ${name}() returns trigger language plpgsql as $$ begin if ${condition} then raise exception '${message}'; end if; return new; end $$`);
  await db.raw(`create trigger ${name} before insert on ${table} for each row execute function ${name}()`);
}

/** Long enough for the dispatcher to have had the poisoned answer and tried to record it. */
const attemptFinished = () => new Promise((resolve) => setTimeout(resolve, 500));

describe("one seller's webhooks never stall another's", () => {
  it("#28.1 a receiver answering NUL and invalid UTF-8 holds back no one, and its answer is kept as text Postgres can store", { timeout: 30_000 }, async () => {
    const a = await sellerWithEndpoint();
    const b = await sellerWithEndpoint();
    a.receiver.answer = () => ({ status: 200, body: Buffer.concat([Buffer.from("ok\u0000"), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(" done")]) });
    await stack.announce("customer.created", a.seller.organizationId, { id: "cus_poisoned_answer" });
    await a.receiver.waitFor(1);
    await attemptFinished();

    await stack.announce("customer.created", b.seller.organizationId, { id: "cus_unrelated" });
    const [delivered] = await b.receiver.waitFor(1, () => true, 5_000);
    expect(delivered?.verified).toBe(true);
    expect(JSON.parse(delivered?.body ?? "")).toMatchObject({ type: "customer.created", data: { id: "cus_unrelated" } });

    await expect.poll(() => attempts(a.seller, a.endpoint.id)).toEqual([{ succeeded: true, httpCode: 200, response: "ok\uFFFD\uFFFD\uFFFD done", eventSucceeded: true }]);
    await expect.poll(() => attempts(b.seller, b.endpoint.id)).toEqual([{ succeeded: true, httpCode: 204, response: null, eventSucceeded: true }]);
    expect(await setAsideWork(a.seller)).toEqual([]);
  });

  it("#28.1 an attempt Postgres keeps refusing is set aside for its seller alone, with its reason, and goes again on request", { timeout: 30_000 }, async () => {
    const a = await sellerWithEndpoint();
    const b = await sellerWithEndpoint();
    // No answer a receiver can give is unstorable any more, so Postgres is made to refuse A's attempts
    // that carry this answer (and no one else's), as it would a value it cannot store.
    await refuseRows("webhook_deliveries", `new.endpoint_id = '${a.endpoint.id}' and new.response like '%poisoned%'`, "attempt refused: the answer is poisoned");
    a.receiver.answer = () => ({ status: 200, body: "poisoned" });
    await stack.announce("customer.created", a.seller.organizationId, { id: "cus_refused" });
    const [sent] = await a.receiver.waitFor(1);
    await attemptFinished();

    await stack.announce("customer.created", b.seller.organizationId, { id: "cus_meanwhile" });
    await b.receiver.waitFor(1, () => true, 5_000);

    await expect
      .poll(() => setAsideWork(a.seller), { timeout: 10_000 })
      .toEqual([
        expect.objectContaining({ worker: "webhook_delivery", item_id: sent?.id, organization_id: a.seller.organizationId, reason: "attempt refused: the answer is poisoned", failures: 5 }),
      ]);
    expect(await setAsideWork(b.seller)).toEqual([]);
    // The delivery log says so too: the event failed, and why.
    await expect.poll(() => attempts(a.seller, a.endpoint.id)).toEqual([{ succeeded: false, httpCode: 200, response: "set aside: attempt refused: the answer is poisoned", eventSucceeded: false }]);

    const [item] = await setAsideWork(a.seller);
    const itemId = String(item?.id);
    expect((await retry(b.seller, itemId)).status).toBe(404);
    a.receiver.answer = () => ({ status: 204 });
    expect((await retry(a.seller, itemId)).status).toBe(202);
    const [, again] = await a.receiver.waitFor(2, () => true, 5_000);
    expect(again?.id).toBe(sent?.id);
    await expect.poll(() => attempts(a.seller, a.endpoint.id)).toHaveLength(2);
    expect((await attempts(a.seller, a.endpoint.id))[1]).toEqual({ succeeded: true, httpCode: 204, response: null, eventSucceeded: true });
    expect(await setAsideWork(a.seller)).toEqual([]);
    expect(b.receiver.received).toHaveLength(1);
  });

  it("a billing event the dispatcher cannot store for one seller holds back no other seller's", { timeout: 30_000 }, async () => {
    const a = await sellerWithEndpoint();
    const b = await sellerWithEndpoint();
    await refuseRows("webhook_events", `new.organization_id = '${a.seller.organizationId}'`, "event refused");
    // Announced together, so that the dispatcher's consumer takes them in one batch.
    await Promise.all([stack.announce("customer.created", a.seller.organizationId, { id: "cus_unstorable" }), stack.announce("customer.created", b.seller.organizationId, { id: "cus_alongside" })]);
    const [delivered] = await b.receiver.waitFor(1, () => true, 5_000);
    expect(JSON.parse(delivered?.body ?? "")).toMatchObject({ data: { id: "cus_alongside" } });
    expect(a.receiver.received).toEqual([]);
  });
});
