import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { WorkFailureRow } from "@tollgate/kit";
import { readMailbox } from "../../../test/stacks/dev-mailbox.js";
import type { Seller } from "../../../test/stacks/billing.js";
import { WebhookReceiver, type Received } from "../../../test/stacks/receiver.js";
import { startDispatcherStack, type DispatcherStack } from "../../../test/stacks/dispatcher.js";
import { createPolar as polarOf202610 } from "polar-sdk-1/2026-10";

let stack: DispatcherStack;
let shop: Seller;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  // Four failed attempts in a row turn an endpoint off, so the test need not wait for ten.
  stack = await startDispatcherStack({ WEBHOOK_DISABLE_AFTER_FAILURES: "4", WEBHOOK_MAX_ATTEMPTS: "10" });
  shop = await stack.seller();
});

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
});

afterAll(async () => {
  await stack?.stop();
});

/** A receiver and an endpoint of the shop's pointing at it, wanting `events`. */
async function endpointFor(events: ("product.created" | "customer.created" | "order.paid")[], options: { format?: "raw" | "discord" | "slack"; seller?: Seller } = {}) {
  const receiver = await new WebhookReceiver().start();
  receivers.push(receiver);
  const endpoint = await (options.seller ?? shop).polar.webhooks.createWebhookEndpoint({ url: receiver.url, format: options.format ?? "raw", events });
  receiver.secrets = [endpoint.secret];
  return { receiver, endpoint };
}

const dataOf = (request: Received) => (JSON.parse(request.body) as { data: { id: string } }).data;

describe("delivery", () => {
  it("POSTs billing events signed with Standard Webhooks, and lists the attempt", async () => {
    const { receiver, endpoint } = await endpointFor(["product.created"]);
    const product = await shop.polar.products.create({ name: "Hooked", prices: [{ amountType: "free" }] });
    const [request] = await receiver.waitFor(1);
    expect(request?.verified).toBe(true);
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers["user-agent"]).toMatch(/^Tollgate-Webhooks\//);
    expect(Number(request?.headers["webhook-timestamp"])).toBeCloseTo(Date.now() / 1000, -1);
    const body = JSON.parse(request?.body ?? "") as { type: string; timestamp: string; data: { id: string; name: string } };
    expect(body).toMatchObject({ type: "product.created", data: { id: product.id, name: "Hooked" } });
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);

    await expect.poll(async () => (await shop.polar.webhooks.listWebhookDeliveries({ endpointId: endpoint.id })).result.items).toHaveLength(1);
    const [delivery] = (await shop.polar.webhooks.listWebhookDeliveries({ endpointId: endpoint.id })).result.items;
    expect(delivery).toMatchObject({ succeeded: true, httpCode: 204, webhookEvent: { id: request?.id, type: "product.created", succeeded: true, skipped: false, payload: request?.body } });
    // Another organization's endpoints see none of it.
    const other = await stack.seller();
    expect((await other.polar.webhooks.listWebhookDeliveries({})).result.items).toEqual([]);
  });

  it("sends each endpoint's payloads in its API version: the version the SDK was pinned to when it was made, or the one set later", async () => {
    const receiver = await new WebhookReceiver().start();
    receivers.push(receiver);
    const pinned = polarOf202610({ accessToken: shop.token, baseUrl: stack.gateway.url });
    const endpoint = await pinned.webhooks.createWebhookEndpoint({ url: receiver.url, format: "raw", events: ["product.created"] });
    receiver.secrets = [endpoint.secret];
    expect(endpoint).toMatchObject({ api_version: "2026-10", uses_standard_webhook_signature: false });
    await shop.polar.products.create({ name: "Versioned hook", prices: [{ amountType: "free" }] });
    const [first] = await receiver.waitFor(1);
    expect(first?.verified).toBe(true);
    expect(first?.headers["webhook-api-version"]).toBe("2026-10");

    expect(await pinned.webhooks.updateWebhookEndpoint(endpoint.id, { api_version: "2026-04" })).toMatchObject({ api_version: "2026-04" });
    await shop.polar.products.create({ name: "Older hook", prices: [{ amountType: "free" }] });
    const [, second] = await receiver.waitFor(2);
    expect(second?.headers["webhook-api-version"]).toBe("2026-04");
    // The delivery log names the version each event went out in (attempts are recorded just after they are answered).
    const versionsLogged = async () => (await pinned.webhooks.listWebhookDeliveries({ endpoint_id: endpoint.id })).items.map((delivery) => delivery.webhook_event.api_version);
    await expect.poll(versionsLogged).toEqual(["2026-04", "2026-10"]);
    // Made by a caller naming no version (SDK 0.47), an endpoint takes the newest.
    const unpinned = await endpointFor(["product.created"]);
    expect((await pinned.webhooks.getWebhookEndpoint(unpinned.endpoint.id)).api_version).toBe("2027-01");
  });

  it("retries after 500s and timeouts with the same webhook-id, and records each attempt", async () => {
    const { receiver, endpoint } = await endpointFor(["customer.created"]);
    let calls = 0;
    receiver.answer = () => {
      calls += 1;
      if (calls === 1) return { status: 500, body: "database is down" };
      // Longer than the dispatcher's one-second timeout.
      if (calls === 2) return { status: 200, hold: new Promise((resolve) => setTimeout(resolve, 1_500)) };
      return { status: 200 };
    };
    await stack.announce("customer.created", shop.organizationId, { id: "cus_retried", email: "retried@example.com" });
    const requests = await receiver.waitFor(3);
    expect(new Set(requests.map((request) => request.id)).size).toBe(1);
    expect(requests.every((request) => request.verified)).toBe(true);

    await expect.poll(async () => (await shop.polar.webhooks.listWebhookDeliveries({ endpointId: endpoint.id })).result.items.length).toBe(3);
    const attempts = (await shop.polar.webhooks.listWebhookDeliveries({ endpointId: endpoint.id })).result.items.reverse();
    expect(attempts.map((attempt) => [attempt.succeeded, attempt.httpCode])).toEqual([[false, 500], [false, null], [true, 200]]);
    expect(attempts[0]?.response).toBe("database is down");
    expect(attempts[1]?.response).toMatch(/no answer within 1000 ms/);
    const failed = await shop.polar.webhooks.listWebhookDeliveries({ endpointId: endpoint.id, succeeded: false, httpCodeClass: "5xx" });
    expect(failed.result.items.map((attempt) => attempt.httpCode)).toEqual([500]);
  });

  it("delivers every event in order, each once, to a receiver that was down for a while", async () => {
    const { receiver, endpoint } = await endpointFor(["customer.created"]);
    await receiver.stop();
    for (let index = 1; index <= 5; index++) await stack.announce("customer.created", shop.organizationId, { id: `cus_${index}`, email: `c${index}@example.com` });
    // Let attempts fail against the closed port before it comes back.
    await expect.poll(async () => (await shop.polar.webhooks.listWebhookDeliveries({ endpointId: endpoint.id, succeeded: false })).result.items.length, { timeout: 5_000 }).toBeGreaterThan(0);
    await receiver.start();
    const requests = await receiver.waitFor(5);
    expect(requests.map((request) => dataOf(request).id)).toEqual(["cus_1", "cus_2", "cus_3", "cus_4", "cus_5"]);
    expect(new Set(requests.map((request) => request.id)).size).toBe(5);
    expect(requests.every((request) => request.verified)).toBe(true);
  });

  it("stores one delivery when the bus hands the same event over twice", async () => {
    const { receiver, endpoint } = await endpointFor(["order.paid"]);
    const { bus } = stack.billing.context;
    const envelope = { id: crypto.randomUUID(), type: "billing.order.paid", occurred_at: new Date().toISOString(), source: "billing", data: { organization_id: shop.organizationId, payload: { id: "ord_twice" } } };
    // Published without a message id, so JetStream's own de-duplication does not hide the copy.
    for (let copy = 0; copy < 2; copy++) await bus.js.publish(bus.names.eventSubject(envelope.type), JSON.stringify(envelope));
    await receiver.waitFor(1);
    await expect.poll(async () => (await shop.polar.webhooks.listWebhookDeliveries({ endpointId: endpoint.id })).result.items.length).toBe(1);
    expect(receiver.received).toHaveLength(1);
  });

  it("keeps a slow endpoint from delaying the others", async () => {
    const slow = await endpointFor(["customer.created"]);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    slow.receiver.answer = () => ({ status: 200, hold: held });
    const fast = await endpointFor(["customer.created"]);
    for (let index = 1; index <= 3; index++) await stack.announce("customer.created", shop.organizationId, { id: `cus_fast_${index}` });
    const delivered = await fast.receiver.waitFor(3);
    expect(delivered.map((request) => dataOf(request).id)).toEqual(["cus_fast_1", "cus_fast_2", "cus_fast_3"]);
    // The slow endpoint is still on its first event, in order, behind its held answer.
    expect(slow.receiver.received.map((request) => dataOf(request).id)).toEqual(["cus_fast_1"]);
    release();
    await slow.receiver.waitFor(3);
  });

  it("sends an endpoint that opts out of ordering its events side by side", async () => {
    const receiver = await new WebhookReceiver().start();
    receivers.push(receiver);
    const response = await fetch(`${stack.gateway.url}/v1/webhooks/endpoints`, {
      method: "POST",
      headers: { authorization: `Bearer ${shop.token}`, "content-type": "application/json" },
      body: JSON.stringify({ url: receiver.url, format: "raw", events: ["order.paid"], ordered: false }),
    });
    const endpoint = (await response.json()) as { secret: string; ordered: boolean };
    expect(endpoint.ordered).toBe(false);
    receiver.secrets = [endpoint.secret];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // The first event's answer is held; the later ones still arrive meanwhile.
    receiver.answer = (request) => (dataOf(request).id === "ord_side_1" ? { status: 200, hold: held } : { status: 200 });
    for (let index = 1; index <= 3; index++) await stack.announce("order.paid", shop.organizationId, { id: `ord_side_${index}` });
    const requests = await receiver.waitFor(3);
    expect(requests.map((request) => dataOf(request).id).sort()).toEqual(["ord_side_1", "ord_side_2", "ord_side_3"]);
    release();
  });

  it("keeps settled events for the retention period only, and pending ones until they settle", async () => {
    const { receiver, endpoint } = await endpointFor(["order.paid"]);
    await stack.announce("order.paid", shop.organizationId, { id: "ord_old" });
    const [sent] = await receiver.waitFor(1);
    const { db, app } = stack.webhooks.context;
    await expect.poll(async () => (await db("webhook_events").where({ endpoint_id: endpoint.id, status: "succeeded" })).length).toBe(1);
    const monthAgo = new Date(Date.now() - 31 * 24 * 3600 * 1000);
    await db("webhook_events").where({ endpoint_id: endpoint.id }).update({ created_at: monthAgo });
    await db("webhook_events").insert({ id: "evt_waiting", endpoint_id: endpoint.id, organization_id: shop.organizationId, source_event_id: "old-pending", type: "order.paid", payload: "{}", status: "pending", created_at: monthAgo });
    // Had the old event been set aside, its seller would stop seeing it along with it.
    await db("set_aside_work").insert({ worker: "webhook_delivery", item: sent?.id, organization_id: shop.organizationId, reason: "refused", failures: 5, set_aside_at: monthAgo });
    app.retention.wake();
    await expect.poll(async () => (await db("webhook_events").where({ endpoint_id: endpoint.id }).select("id")).map((event: { id: string }) => event.id)).toEqual(["evt_waiting"]);
    expect((await shop.polar.webhooks.listWebhookDeliveries({ endpointId: endpoint.id })).result.items).toEqual([]);
    expect(await db("set_aside_work").where({ item: sent?.id }).select("id")).toEqual([]);
  });

  it("signs with both secrets during a rotation, and renders Discord and Slack messages", async () => {
    const { receiver, endpoint } = await endpointFor(["customer.created"], { format: "discord" });
    const rotated = await shop.polar.webhooks.resetWebhookEndpointSecret({ id: endpoint.id });
    await stack.announce("customer.created", shop.organizationId, { id: "cus_rotated", email: "rotated@example.com" });
    const [request] = await receiver.waitFor(1);
    expect(String(request?.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const secret of [endpoint.secret, rotated.secret]) {
      receiver.secrets = [secret];
      expect(await verifiedAgain(receiver, request)).toBe(true);
    }
    expect(JSON.parse(request?.body ?? "")).toEqual({ username: "Tollgate", embeds: [{ title: "customer.created", description: "rotated@example.com (cus_rotated)", timestamp: expect.any(String) as string }] });

    const slack = await endpointFor(["customer.created"], { format: "slack" });
    await stack.announce("customer.created", shop.organizationId, { id: "cus_slack", name: "Ada" });
    const [message] = await slack.receiver.waitFor(1, (received) => received.body.includes("cus_slack"));
    expect(message?.verified).toBe(true);
    expect(JSON.parse(message?.body ?? "")).toMatchObject({ text: "customer.created: Ada (cus_slack)" });
  });

  it("redelivers a stored event as a new attempt with the same webhook-id", async () => {
    const { receiver, endpoint } = await endpointFor(["order.paid"]);
    await stack.announce("order.paid", shop.organizationId, { id: "ord_again" });
    const [first] = await receiver.waitFor(1);
    await shop.polar.webhooks.redeliverWebhookEvent({ id: first?.id ?? "" });
    const [, second] = await receiver.waitFor(2);
    expect(second?.id).toBe(first?.id);
    expect(second?.body).toBe(first?.body);
    await expect.poll(async () => (await shop.polar.webhooks.listWebhookDeliveries({ endpointId: endpoint.id })).result.items.length).toBe(2);
  });

  it("sends a signed test event on the seller's asking, logs it as any delivery, and keeps it to the endpoint's organization", async () => {
    const { receiver, endpoint } = await endpointFor(["order.paid"]);
    const send = (seller: Seller, id = endpoint.id) => fetch(`${stack.gateway.url}/v1/webhooks/endpoints/${id}/test`, { method: "POST", headers: { authorization: `Bearer ${seller.token}` } });
    const response = await send(shop);
    expect(response.status).toBe(202);
    const event = (await response.json()) as { id: string; type: string; succeeded: boolean | null };
    expect(event).toMatchObject({ type: "webhook.test", succeeded: null });
    const [request] = await receiver.waitFor(1);
    expect(request).toMatchObject({ id: event.id, verified: true });
    expect(JSON.parse(request?.body ?? "")).toMatchObject({ type: "webhook.test", data: { id: event.id, endpoint_id: endpoint.id, organization_id: shop.organizationId } });
    await expect.poll(async () => (await shop.polar.webhooks.listWebhookDeliveries({ endpointId: endpoint.id })).result.items.map((delivery) => [delivery.webhookEvent.type, delivery.succeeded])).toEqual([["webhook.test", true]]);

    // Another seller cannot reach the endpoint; a switched-off one is sent nothing.
    expect((await send(await stack.seller())).status).toBe(404);
    await shop.polar.webhooks.updateWebhookEndpoint({ id: endpoint.id, webhookEndpointUpdate: { enabled: false } });
    expect(await send(shop).then((refused) => refused.status)).toBe(403);
  });

  it("turns off an endpoint whose last attempts all failed, skips what waited, mails the owner in their language, and resumes when turned on", async () => {
    const { receiver, endpoint } = await endpointFor(["customer.created"]);
    await shop.owner.client.updateUser({ locale: "fr" });
    receiver.answer = () => ({ status: 503 });
    await stack.announce("customer.created", shop.organizationId, { id: "cus_doomed_1" });
    await stack.announce("customer.created", shop.organizationId, { id: "cus_doomed_2" });
    await expect.poll(async () => (await shop.polar.webhooks.getWebhookEndpoint({ id: endpoint.id })).enabled, { timeout: 10_000 }).toBe(false);
    const events = await stack.webhooks.context.db("webhook_events").where({ endpoint_id: endpoint.id }).orderBy("sequence").select("status");
    expect(events.map((event: { status: string }) => event.status)).toEqual(["skipped", "skipped"]);
    await expect
      .poll(async () => (await readMailbox(stack)).filter((mail) => mail.to === shop.owner.email && mail.subject === "Un point de terminaison de webhook a été désactivé" && mail.text.includes(receiver.url)).length, { timeout: 10_000 })
      .toBe(1);

    receiver.answer = () => ({ status: 200 });
    await shop.polar.webhooks.updateWebhookEndpoint({ id: endpoint.id, webhookEndpointUpdate: { enabled: true } });
    await stack.announce("customer.created", shop.organizationId, { id: "cus_after" });
    await receiver.waitFor(1, (request) => request.body.includes("cus_after"));
  });

  it("sets aside an event it cannot send, for its seller to see with the reason, and sends the endpoint's next ones", async () => {
    const { receiver, endpoint } = await endpointFor(["customer.created"], { format: "discord" });
    const { db, app } = stack.webhooks.context;
    // Billing never stores such a payload: it stands for any event that throws as it is rendered or signed.
    await db("webhook_events").insert({ id: "evt_unreadable", endpoint_id: endpoint.id, organization_id: shop.organizationId, source_event_id: "unreadable", type: "customer.created", payload: "not json", run_at: new Date() });
    app.scheduler.wake();
    await stack.announce("customer.created", shop.organizationId, { id: "cus_after_unreadable" });
    const [sent] = await receiver.waitFor(1);
    expect(sent?.body).toContain("cus_after_unreadable");
    const [setAside] = await db("set_aside_work").where({ item: "evt_unreadable" }).select<Pick<WorkFailureRow, "worker" | "organization_id" | "failures">[]>("worker", "organization_id", "failures");
    expect(setAside).toEqual({ worker: "webhook_delivery", organization_id: shop.organizationId, failures: 5 });
    const attempts = (await shop.polar.webhooks.listWebhookDeliveries({ endpointId: endpoint.id })).result.items.filter((attempt) => attempt.webhookEvent.id === "evt_unreadable");
    expect(attempts).toEqual([expect.objectContaining({ succeeded: false, httpCode: null, response: expect.stringMatching(/^set aside: .*JSON/) as string, webhookEvent: expect.objectContaining({ succeeded: false }) as object })]);
  });

  it("treats a redirect as a failure and does not follow it", async () => {
    const target = await new WebhookReceiver().start();
    receivers.push(target);
    const { receiver, endpoint } = await endpointFor(["order.paid"]);
    receiver.answer = () => ({ status: 307, location: target.url });
    await stack.announce("order.paid", shop.organizationId, { id: "ord_redirected" });
    await expect.poll(async () => (await shop.polar.webhooks.listWebhookDeliveries({ endpointId: endpoint.id, httpCodeClass: "3xx" })).result.items.length).toBeGreaterThan(0);
    expect(target.received).toEqual([]);
  });
});

/** Checks a received request again with the receiver's current secrets, as the seller's code would after a switch. */
async function verifiedAgain(receiver: WebhookReceiver, request: Received | undefined): Promise<boolean> {
  const { Webhook } = await import("standardwebhooks");
  const headers = { "webhook-id": String(request?.headers["webhook-id"]), "webhook-timestamp": String(request?.headers["webhook-timestamp"]), "webhook-signature": String(request?.headers["webhook-signature"]) };
  return receiver.secrets.every((secret) => {
    try {
      new Webhook(Buffer.from(secret, "utf8").toString("base64")).verify(request?.body ?? "", headers);
      return true;
    } catch {
      return false;
    }
  });
}
