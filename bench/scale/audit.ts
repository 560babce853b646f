/**
 * The rules a scale run must keep, checked once the load has stopped and the work it left has
 * settled: client errors only for requests in flight on a killed replica; one order per paid
 * checkout; one charge per renewal period; every event applied once by each consumer that handles
 * its type; every webhook delivered, twice only when a kill cut its first send short.
 */
import type { BusConnection, Knex } from "@tollgate/kit";
import { addInterval } from "../../services/billing/src/api/dates.js";
import { confirmedCheckouts, deadLetters, inboxes, paymentJobsLeft, subscriptionRenewals, unpublishedEvents, webhookEvents } from "./audit.sql.js";
import type { RequestRecord } from "./load.js";
import type { Disruption } from "./stack.js";

/** One rule: the figure it is judged by, what the figure allowed for, and why it was broken (nothing when it held). */
export interface Verdict {
  rule: string;
  figure: string;
  notes: string[];
  broken: string[];
}

export interface StreamEvent {
  id: string;
  type: string;
  subject: string;
  organizationId: string | null;
}

export interface Receipt {
  /** The webhook-id header: the stored webhook event's id. */
  id: string;
  at: number;
  verified: boolean;
}

/** Every event in the stream, in order. */
export async function streamEvents(bus: BusConnection): Promise<StreamEvent[]> {
  const stream = bus.names.eventStream;
  const last = (await bus.jsm.streams.info(stream)).state.last_seq;
  if (last === 0) return [];
  const messages = await (await bus.js.consumers.get(stream)).consume();
  const events: StreamEvent[] = [];
  for await (const message of messages) {
    const envelope = message.json<{ id: string; type: string; data: { organization_id?: unknown } }>();
    events.push({ id: envelope.id, type: envelope.type, subject: message.subject, organizationId: typeof envelope.data.organization_id === "string" ? envelope.data.organization_id : null });
    if (message.seq >= last) break;
  }
  await messages.close();
  return events;
}

/** Each durable consumer of the stream, its subject filter and what it has yet to take or acknowledge. */
export async function consumerStates(bus: BusConnection): Promise<{ name: string; filter: string; outstanding: number }[]> {
  const states = [];
  for await (const info of bus.jsm.consumers.list(bus.names.eventStream)) {
    states.push({ name: info.name, filter: info.config.filter_subject ?? ">", outstanding: info.num_pending + info.num_ack_pending });
  }
  return states;
}

/** NATS subject matching: `*` is one token, `>` the rest. */
function subjectMatches(filter: string, subject: string): boolean {
  const wanted = filter.split(".");
  const tokens = subject.split(".");
  for (const [index, token] of wanted.entries()) {
    if (token === ">") return tokens.length > index;
    if (token !== "*" && token !== tokens[index]) return false;
  }
  return wanted.length === tokens.length;
}

/** What is still to happen after the load: each, the count left. The run waits for all to be 0. */
export async function unsettled(db: Knex, bus: BusConnection, receipts: Receipt[]): Promise<Record<string, number>> {
  const received = new Set(receipts.map((receipt) => receipt.id));
  const [checkouts, jobs, outboxes, consumers, webhooks] = await Promise.all([confirmedCheckouts(db), paymentJobsLeft(db), unpublishedEvents(db), consumerStates(bus), webhookEvents(db)]);
  return {
    "checkouts confirmed, not yet paid": checkouts.filter((checkout) => checkout.status === "confirmed").length + jobs,
    "events in outboxes": outboxes,
    "events not yet acknowledged by a consumer": consumers.reduce((sum, consumer) => sum + consumer.outstanding, 0),
    "webhook events not yet received": webhooks.filter((event) => !received.has(event.id)).length,
  };
}

/** Whether `record` was in flight while `disruption` happened. */
const overlaps = (record: RequestRecord, disruption: Disruption) => record.startedAt <= disruption.until && record.endedAt >= disruption.at;

/**
 * Only requests in flight on a process that was killed may fail: on a replica (directly, or through a
 * NATS request to it) or on the NATS server, for requests that needed it just then.
 */
export function clientErrors(records: RequestRecord[], disruptions: Disruption[]): Verdict {
  const failed = records.filter((record) => record.status < 200 || record.status >= 300);
  const explained = new Map<string, number>();
  const broken: string[] = [];
  for (const record of failed) {
    const describe = `${record.operation}: ${record.route} (${record.service}) answered ${record.status || "nothing"}: ${record.detail.slice(0, 120)}`;
    const disruption = disruptions.find((candidate) => overlaps(record, candidate));
    if (!disruption) {
      broken.push(describe);
      continue;
    }
    const which = `${describe}, in flight when ${disruption.target} was ${disruption.target === "nats-server" ? "restarted" : "killed"}`;
    explained.set(which, (explained.get(which) ?? 0) + 1);
  }
  return {
    rule: "client errors, only requests in flight on a killed replica",
    figure: `${failed.length} of ${records.length} requests failed, ${failed.length - broken.length} of them in flight on a process killed`,
    notes: [...explained].map(([what, count]) => `${count}× ${what}`),
    broken,
  };
}

/** Every checkout confirmed was paid (or failed) and has exactly one order if paid. */
export async function ordersPerCheckout(db: Knex): Promise<Verdict> {
  const checkouts = await confirmedCheckouts(db);
  const paid = checkouts.filter((checkout) => checkout.status === "succeeded");
  const broken = [
    ...checkouts.filter((checkout) => checkout.status === "confirmed").map((checkout) => `checkout ${checkout.id} is still confirmed, never paid`),
    ...checkouts.filter((checkout) => (checkout.status === "succeeded" ? checkout.orders !== 1 : checkout.orders > 0)).map((checkout) => `checkout ${checkout.id} (${checkout.status}) has ${checkout.orders} orders`),
  ];
  const failed = checkouts.filter((checkout) => checkout.status === "failed").length;
  return { rule: "orders per confirmed checkout, exactly 1", figure: `${paid.length} paid checkouts, ${paid.filter((checkout) => checkout.orders === 1).length} with one order${failed ? `; ${failed} failed` : ""}`, notes: [], broken };
}

/** Each subscription was renewed once for every period its seller's clock went through, each renewal charged once. */
export async function chargesPerRenewal(db: Knex): Promise<Verdict> {
  const subscriptions = await subscriptionRenewals(db);
  const broken: string[] = [];
  let periods = 0;
  for (const subscription of subscriptions) {
    let expected = 0;
    for (let start = subscription.started_at; start < subscription.current_period_start; start = addInterval(start, "month", 1)) expected += 1;
    periods += expected;
    if (subscription.cycle_orders !== expected) broken.push(`subscription ${subscription.id} went through ${expected} renewals but has ${subscription.cycle_orders} renewal orders`);
    if (subscription.cycle_orders_not_charged_once > 0) broken.push(`subscription ${subscription.id}: ${subscription.cycle_orders_not_charged_once} renewal orders without exactly one successful charge`);
    if (subscription.next_action_at && subscription.next_action_at <= subscription.seller_now) broken.push(`subscription ${subscription.id} (${subscription.status}) was due at ${subscription.next_action_at.toISOString()} and not renewed`);
  }
  return { rule: "charges per renewal period, exactly 1", figure: `${periods} renewal periods over ${subscriptions.length} subscriptions`, notes: [], broken };
}

/**
 * Each consumer applied every event of the types it handles exactly once. The types it handles are
 * those its inbox holds any of (a type it never recorded is one it acknowledges and ignores); an
 * event of such a type missing from its inbox was lost, one in it twice was applied twice.
 */
export async function eventsPerConsumer(db: Knex, bus: BusConnection, events: StreamEvent[]): Promise<Verdict> {
  const [inbox, dead, consumers] = await Promise.all([inboxes(db), deadLetters(db), consumerStates(bus)]);
  const broken = dead.map((letter) => `${letter.consumer} set an event aside: ${letter.error.slice(0, 160)}`);
  const figures: string[] = [];
  const typeOf = new Map(events.map((event) => [event.id, event.type]));
  for (const consumer of consumers) {
    const applied = inbox.filter((row) => row.consumer === consumer.name).map((row) => row.event_id);
    // The gateway's cache invalidation keeps no inbox: dropping a cache entry twice is harmless.
    if (applied.length === 0) continue;
    const handled = new Set(applied.map((id) => typeOf.get(id)));
    const expected = events.filter((event) => handled.has(event.type) && subjectMatches(consumer.filter, event.subject));
    const appliedOnce = new Set(applied);
    const missing = expected.filter((event) => !appliedOnce.has(event.id));
    const twice = applied.length - appliedOnce.size;
    const unknown = applied.filter((id) => !typeOf.has(id)).length;
    figures.push(`${consumer.name} ${appliedOnce.size}/${expected.length}`);
    if (missing.length > 0) broken.push(`${consumer.name} never applied ${missing.length} events, e.g. ${missing.slice(0, 3).map((event) => `${event.type} ${event.id}`).join(", ")}`);
    if (twice > 0) broken.push(`${consumer.name} applied ${twice} events twice`);
    if (unknown > 0) broken.push(`${consumer.name} recorded ${unknown} events the stream does not hold`);
  }
  return { rule: "events applied per consumer, each exactly once", figure: "applied / published of the types each handles", notes: figures, broken };
}

/**
 * Every billing event of a seller with an endpoint reached the receiver. A webhook id received twice
 * is allowed only when its first send was cut short by a kill of a dispatcher replica: sent, but not
 * yet recorded as sent when the process died (up to `sendMs` before the kill).
 */
export async function webhookDeliveries(db: Knex, events: StreamEvent[], endpoints: { id: string; organizationId: string }[], receipts: Receipt[], kills: Disruption[], sendMs: number): Promise<Verdict> {
  const stored = await webhookEvents(db);
  const broken: string[] = [];
  const storedFor = new Set(stored.map((event) => `${event.endpoint_id}:${event.source_event_id}`));
  for (const endpoint of endpoints) {
    const lost = events.filter((event) => event.organizationId === endpoint.organizationId && event.type.startsWith("billing.") && !storedFor.has(`${endpoint.id}:${event.id}`));
    if (lost.length > 0) broken.push(`${lost.length} billing events never became webhook events for endpoint ${endpoint.id}, e.g. ${lost.slice(0, 3).map((event) => event.type).join(", ")}`);
  }
  const receiptsOf = new Map<string, Receipt[]>();
  for (const receipt of receipts) receiptsOf.set(receipt.id, [...(receiptsOf.get(receipt.id) ?? []), receipt]);
  const missing = stored.filter((event) => !receiptsOf.has(event.id));
  if (missing.length > 0) broken.push(`${missing.length} webhook events never reached the receiver, e.g. ${missing.slice(0, 3).map((event) => `${event.id} (${event.status})`).join(", ")}`);
  const unverified = receipts.filter((receipt) => !receipt.verified).length;
  if (unverified > 0) broken.push(`${unverified} deliveries failed signature verification`);
  const dispatcherKills = kills.filter((kill) => kill.target.startsWith("webhook-dispatcher"));
  const notes: string[] = [];
  for (const [id, copies] of receiptsOf) {
    if (copies.length < 2) continue;
    const first = copies[0]?.at ?? 0;
    const kill = copies.length === 2 ? dispatcherKills.find((candidate) => first >= candidate.at - sendMs && first <= candidate.until) : undefined;
    if (kill) notes.push(`${id} again: its first send was cut short when ${kill.target} was killed`);
    else broken.push(`webhook ${id} was received ${copies.length} times`);
  }
  return {
    rule: "webhook events missing at the receiver (0), duplicated (only sends cut by a kill)",
    figure: `${receiptsOf.size} of ${stored.length} received, ${missing.length} missing, ${notes.length} duplicated by a kill`,
    notes,
    broken,
  };
}
