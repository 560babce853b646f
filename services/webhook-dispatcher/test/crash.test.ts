import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "@tollgate/kit";
import { spawnTypeScript, type SpawnedProcess } from "@tollgate/kit/testing";
import type { Seller } from "../../../test/stacks/billing.js";
import { WebhookReceiver } from "../../../test/stacks/receiver.js";
import { startDispatcherStack, type DispatcherStack } from "../../../test/stacks/dispatcher.js";

const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));

let stack: DispatcherStack;
let shop: Seller;
const replicas: SpawnedProcess[] = [];
/** A receiver for the slow delivery, its endpoint made while the stack's own dispatcher (which the tests stop) still serves the API. */
let slowReceiver: WebhookReceiver;

beforeAll(async () => {
  stack = await startDispatcherStack();
  shop = await stack.seller();
  slowReceiver = await new WebhookReceiver().start();
  const endpoint = await shop.polar.webhooks.createWebhookEndpoint({ url: slowReceiver.url, format: "raw", events: ["customer.created"] });
  slowReceiver.secrets = [endpoint.secret];
});

afterAll(async () => {
  for (const replica of replicas) if (replica.child.exitCode === null) replica.child.kill("SIGKILL");
  await slowReceiver?.stop();
  await stack?.stop();
});

/** A dispatcher process of its own, on the stack's database and bus, as a second deployment replica would be. */
async function startReplica(settings: Record<string, string> = {}): Promise<SpawnedProcess> {
  const replica = spawnTypeScript(main, { env: { ...stack.dispatcherEnv, PORT: "0", HOST: "127.0.0.1", LOG_FORMAT: "json", LOG_LEVEL: "info", ...settings } });
  replicas.push(replica);
  await replica.waitFor(/webhook-dispatcher is listening/, 30_000);
  return replica;
}

describe("a dispatcher killed mid-delivery", () => {
  it("loses nothing: a restarted one sends what was in flight, then the rest, in order", { timeout: 60_000 }, async () => {
    const receiver = await new WebhookReceiver().start();
    const endpoint = await shop.polar.webhooks.createWebhookEndpoint({ url: receiver.url, format: "raw", events: ["order.paid"] });
    receiver.secrets = [endpoint.secret];
    // The first request is never answered: the process sending it dies while it waits.
    receiver.answer = (request) => (receiver.received.indexOf(request) === 0 ? { status: 200, hold: new Promise(() => {}) } : { status: 200 });

    // Only the spawned replicas send from here on.
    await stack.webhooks.stop();
    const doomed = await startReplica();
    for (const id of ["ord_1", "ord_2", "ord_3"]) await stack.announce("order.paid", shop.organizationId, { id });
    const [inFlight] = await receiver.waitFor(1);
    // It dies once it has stored all three: what is in question here is the delivery it had in flight.
    const db = createDatabase({ url: stack.dispatcherEnv.DATABASE_URL ?? "", schema: stack.webhooks.context.config.DATABASE_SCHEMA, poolMax: 1 });
    await expect.poll(async () => (await db("webhook_events").where({ endpoint_id: endpoint.id })).length, { timeout: 15_000 }).toBe(3);
    await db.destroy();
    doomed.child.kill("SIGKILL");
    await doomed.exited;

    await startReplica();
    const requests = await receiver.waitFor(4, () => true, 30_000);
    const ids = requests.map((request) => (JSON.parse(request.body) as { data: { id: string } }).data.id);
    expect(ids).toEqual(["ord_1", "ord_1", "ord_2", "ord_3"]);
    // The retry is the same delivery: the same webhook-id, so the receiver can tell.
    expect(requests[1]?.id).toBe(inFlight?.id);
    expect(requests.every((request) => request.verified)).toBe(true);
    await receiver.stop();
  });
});

describe("a dispatcher slow to deliver", () => {
  it("keeps what it sends for as long as the send takes, though its lease is shorter and another replica looks for work all the while", { timeout: 60_000 }, async () => {
    // Answered after 7 s, within the send's timeout but past the 5 s a claim holds an event unextended.
    slowReceiver.answer = () => ({ status: 200, hold: new Promise((resolve) => setTimeout(resolve, 7_000)) });
    for (const replica of replicas) if (replica.child.exitCode === null) replica.child.kill("SIGKILL");
    await Promise.all([startReplica({ WEBHOOK_TIMEOUT_MS: "9000" }), startReplica({ WEBHOOK_TIMEOUT_MS: "9000" })]);

    await stack.announce("customer.created", shop.organizationId, { id: "cus_slow" });
    await slowReceiver.waitFor(1, () => true, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 9_000));
    expect(slowReceiver.received).toHaveLength(1);
  });
});
