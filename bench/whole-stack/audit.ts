/**
 * The rules a whole-stack run must keep, checked once the load has stopped and the work it left has
 * settled: client errors only for requests in flight on a process disrupted; one order and one
 * charge per paid checkout, every checkout the load saw confirmed among them; one charge per renewal
 * period; one grant of each benefit per purchase; every refund the load was answered made once;
 * outboxes drained and consumers caught up; every event applied once by each consumer that handles
 * its type; every webhook delivered, twice only when a kill or Postgres restart kept its first send
 * from being recorded.
 */
import type { BusConnection, Knex } from "@tollgate/kit";
import { addInterval } from "../../services/billing/src/calendar/intervals.js";
import {
  confirmedCheckouts,
  customerStatesPending,
  deadLetters,
  inboxes,
  paymentJobsLeft,
  purchaseGrants,
  refundedOrders,
  refunds,
  renewalsDue,
  subscriptionRenewals,
  unpublishedEvents,
  webhookEvents,
} from "./audit.sql.js";
import type { Ledger, RequestRecord } from "./load.js";
import type { Disruption } from "./stack.js";

/** One rule: the figure it is judged by, what the figure allowed for, and why it was broken (nothing when it held). */
export interface Verdict {
  rule: string;
  figure: string;
  notes: string[];
  broken: string[];
}

/** Verdicts as report lines: kept or BROKEN, the figure, what it allowed for, and why it was broken (the first 20 reasons). */
export function verdictLines(verdicts: Verdict[]): string[] {
  return verdicts.flatMap((verdict) => [
    `  ${verdict.broken.length === 0 ? "kept  " : "BROKEN"}  ${verdict.rule}: ${verdict.figure}`,
    ...[...verdict.notes, ...verdict.broken.slice(0, 20)].map((line) => `            ${line}`),
    ...(verdict.broken.length > 20 ? [`            … and ${verdict.broken.length - 20} more`] : []),
  ]);
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

/**
 * Each durable consumer of the stream, its subject filter and what it has yet to take or acknowledge.
 * (The audit's own readers of the stream are ephemeral, and left out.)
 */
export async function consumerStates(bus: BusConnection): Promise<{ name: string; filter: string; outstanding: number }[]> {
  const states = [];
  for await (const info of bus.jsm.consumers.list(bus.names.eventStream)) {
    if (!info.config.durable_name) continue;
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
  const [checkouts, jobs, renewals, states, outboxes, consumers, webhooks] = await Promise.all([
    confirmedCheckouts(db),
    paymentJobsLeft(db),
    renewalsDue(db),
    customerStatesPending(db),
    unpublishedEvents(db),
    consumerStates(bus),
    webhookEvents(db),
  ]);
  return {
    "checkouts confirmed, not yet paid": checkouts.filter((checkout) => checkout.status === "confirmed").length + jobs,
    "subscriptions due, not yet renewed": renewals,
    "customer states not yet announced": states,
    "events in outboxes": Object.values(outboxes).reduce((sum, count) => sum + count, 0),
    ...Object.fromEntries(consumers.map((consumer) => [`events not yet acknowledged by ${consumer.name}`, consumer.outstanding])),
    "webhook events not yet received": webhooks.filter((event) => !received.has(event.id)).length,
  };
}

/** Whether `record` was in flight while `disruption` happened. */
const overlaps = (record: RequestRecord, disruption: Disruption) => record.startedAt <= disruption.until && record.endedAt >= disruption.at;

/**
 * Only requests in flight on a process that was disrupted may fail: on a replica (directly, or
 * through a NATS request to it) or on a server it needs (NATS, Postgres, Redis), for requests that
 * needed it just then; and a request sent again because such a one got no answer.
 */
export function clientErrors(records: RequestRecord[], disruptions: Disruption[]): Verdict {
  const failed = records.filter((record) => record.status < 200 || record.status >= 300);
  const explained = new Map<string, number>();
  const broken: string[] = [];
  for (const record of failed) {
    // Answers that differ only by the request's reference count as one.
    const detail = record.detail.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "…").slice(0, 120);
    const describe = `${record.operation}: ${record.route} (${record.service}) answered ${record.status || "nothing"}: ${detail}`;
    const disruption = disruptions.find((candidate) => overlaps(record, candidate) || (record.retryOf !== undefined && overlaps(record.retryOf, candidate)));
    if (!disruption) {
      broken.push(describe);
      continue;
    }
    const which = `${describe}${record.retryOf ? " (sent again)" : ""}, in flight when ${disruption.target} was ${disruption.what}`;
    explained.set(which, (explained.get(which) ?? 0) + 1);
  }
  return {
    rule: "client errors, only requests in flight on a process disrupted",
    figure: `${failed.length} of ${records.length} requests failed, ${failed.length - broken.length} of them in flight on a process killed`,
    notes: [...explained].map(([what, count]) => `${count}× ${what}`),
    broken,
  };
}

/**
 * Every checkout confirmed was paid (or failed) and, if paid, has exactly one order and one successful
 * charge; every checkout whose confirmation the load was answered is among the paid (the 4242 card
 * never declines).
 */
export async function ordersPerCheckout(db: Knex, ledger: Ledger): Promise<Verdict> {
  const checkouts = await confirmedCheckouts(db);
  const paid = checkouts.filter((checkout) => checkout.status === "succeeded");
  const paidIds = new Set(paid.map((checkout) => checkout.id));
  const lost = ledger.confirmedCheckouts.filter((id) => !paidIds.has(id));
  const broken = [
    ...checkouts.filter((checkout) => checkout.status === "confirmed").map((checkout) => `checkout ${checkout.id} is still confirmed, never paid`),
    ...checkouts.filter((checkout) => (checkout.status === "succeeded" ? checkout.orders !== 1 : checkout.orders > 0)).map((checkout) => `checkout ${checkout.id} (${checkout.status}) has ${checkout.orders} orders`),
    ...checkouts.filter((checkout) => (checkout.status === "succeeded" ? checkout.charges !== 1 : checkout.charges > 0)).map((checkout) => `checkout ${checkout.id} (${checkout.status}) was charged ${checkout.charges} times`),
    ...lost.map((id) => `checkout ${id} was confirmed to the buyer but is not paid`),
  ];
  const failed = checkouts.filter((checkout) => checkout.status === "failed").length;
  return {
    rule: "orders and charges per confirmed checkout, exactly 1",
    figure: `${paid.length} paid checkouts, ${paid.filter((checkout) => checkout.orders === 1 && checkout.charges === 1).length} with one order and one charge; ${ledger.confirmedCheckouts.length - lost.length} of the ${ledger.confirmedCheckouts.length} the load saw confirmed${failed ? `; ${failed} failed` : ""}`,
    notes: [],
    broken,
  };
}

/** Each paid one-time order, and each live subscription, holds one grant of each benefit of its product, granted. */
export async function grantsPerPurchase(db: Knex): Promise<Verdict> {
  const rows = await purchaseGrants(db);
  const broken = [
    ...rows.filter((row) => row.grants !== 1).map((row) => `${row.purchase} has ${row.grants} grants of benefit ${row.benefit_id}`),
    ...rows.filter((row) => row.grants === 1 && row.granted !== 1).map((row) => `${row.purchase}'s grant of benefit ${row.benefit_id} is not granted`),
  ];
  return { rule: "benefit grants per purchase, exactly 1", figure: `${rows.filter((row) => row.grants === 1 && row.granted === 1).length} of ${rows.length} purchases' benefits granted once`, notes: [], broken };
}

/**
 * Every refund the load was answered exists and succeeded; no Idempotency-Key made two; each order's
 * refunded amount is what its successful refunds add up to.
 */
export async function refundsOnce(db: Knex, ledger: Ledger): Promise<Verdict> {
  const [made, orders] = await Promise.all([refunds(db), refundedOrders(db)]);
  const byId = new Map(made.map((refund) => [refund.id, refund]));
  const byKey = new Map<string, number>();
  for (const refund of made) if (refund.load_key) byKey.set(refund.load_key, (byKey.get(refund.load_key) ?? 0) + 1);
  const broken = [
    ...ledger.refunds.filter((refund) => byId.get(refund.id)?.status !== "succeeded").map((refund) => `refund ${refund.id} was answered 201 but is ${byId.get(refund.id)?.status ?? "missing"}`),
    ...[...byKey].filter(([, count]) => count > 1).map(([key, count]) => `Idempotency-Key ${key} made ${count} refunds`),
    ...orders.filter((order) => order.refunded_amount !== order.refunds_total).map((order) => `order ${order.id} says ${order.refunded_amount} was refunded, its refunds add up to ${order.refunds_total}`),
  ];
  const unanswered = made.length - ledger.refunds.length;
  return {
    rule: "refunds, each made once",
    figure: `${ledger.refunds.length} answered 201, ${made.filter((refund) => refund.status === "succeeded").length} made${unanswered > 0 ? ` (${unanswered} whose answer the load never got)` : ""}`,
    notes: [],
    broken,
  };
}

/** No committed event is left unpublished in any service's outbox. */
export async function outboxesDrained(db: Knex): Promise<Verdict> {
  const counts = await unpublishedEvents(db);
  const broken = Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([schema, count]) => `${schema}'s outbox holds ${count} unpublished events`);
  return { rule: "outboxes drained", figure: Object.entries(counts).map(([schema, count]) => `${schema} ${count}`).join(", "), notes: [], broken };
}

/** Every durable consumer has taken and acknowledged everything in the stream for it (JetStream's own consumer info). */
export async function consumersCaughtUp(bus: BusConnection): Promise<Verdict> {
  const states = await consumerStates(bus);
  const broken = states.filter((state) => state.outstanding > 0).map((state) => `${state.name} has ${state.outstanding} events not yet acknowledged`);
  return { rule: "consumers caught up", figure: `${states.length - broken.length} of ${states.length} durable consumers with nothing pending`, notes: [], broken };
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
 * is allowed only when its first send's success could not be recorded: sent, but not yet recorded as
 * sent when a dispatcher replica was killed or Postgres stopped (up to `sendMs` before, until it was
 * back); the event is then sent again, with the same webhook-id, as Standard Webhooks expects.
 */
export async function webhookDeliveries(db: Knex, events: StreamEvent[], endpoints: { id: string; organizationId: string }[], receipts: Receipt[], disruptions: Disruption[], sendMs: number): Promise<Verdict> {
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
  const cuts = disruptions.filter((disruption) => disruption.target.startsWith("webhook-dispatcher") || disruption.target === "postgres");
  const notes: string[] = [];
  for (const [id, copies] of receiptsOf) {
    if (copies.length < 2) continue;
    const first = copies[0]?.at ?? 0;
    const cut = copies.length === 2 ? cuts.find((candidate) => first >= candidate.at - sendMs && first <= candidate.until) : undefined;
    if (cut) notes.push(`${id} again: its first send could not be recorded when ${cut.target} was ${cut.what}`);
    else broken.push(`webhook ${id} was received ${copies.length} times`);
  }
  return {
    rule: "webhook events missing at the receiver (0), duplicated (only sends whose record a kill or Postgres cut short)",
    figure: `${receiptsOf.size} of ${stored.length} received, ${missing.length} missing, ${notes.length} duplicated by a kill or Postgres restart`,
    notes,
    broken,
  };
}
