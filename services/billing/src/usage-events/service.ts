import { randomBytes } from "node:crypto";
import { ValidationError, type Knex, type Units, type ValidationIssue } from "@tollgate/kit";
import { customerIdsMatching, customersNamed, customersWithIds } from "../customers/customers.sql.js";
import type { Filter } from "../meters/filter.js";
import { ensureEventTypes } from "../event-types/event-types.sql.js";
import { labelsOfEvents, labelsOfNames } from "../event-types/service.js";
import { findMeter } from "../meters/meters.sql.js";
import { sellerNow } from "../test-clock/clock.js";
import { eventJson, eventNameJson } from "./output.js";
import type { EventCreate } from "./schemas.js";
import {
  appendEvents,
  childCounts,
  eventsReferenced,
  pageOfEventNames,
  pageOfEvents,
  pageOfEventTypes,
  type CustomerMatch,
  type EventFilter,
  type NameStatsFilter,
  type UsageEventDraft,
  type UsageEventRow,
} from "./usage-events.sql.js";

// The reads the routes make, as the store has them: an event by id.
export { findEvent } from "./usage-events.sql.js";

/**
 * UUIDs of version 7 for a batch: the time in milliseconds first, so new events' ids sort last and
 * land together at the right edge of the primary key, instead of on pages all over it (a random id's
 * fate), both when they are written and when the measurer reads them back.
 */
function timeOrderedIds(count: number): string[] {
  const bytes = randomBytes(16 * count);
  const now = Date.now();
  return Array.from({ length: count }, (_, index) => {
    const id = bytes.subarray(index * 16, index * 16 + 16);
    id.writeUIntBE(now, 0, 6);
    id[6] = ((id[6] ?? 0) & 0x0f) | 0x70;
    id[8] = ((id[8] ?? 0) & 0x3f) | 0x80;
    const hex = id.toString("hex");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  });
}

/**
 * Each event's organization: the one it names, which the caller must reach, or the caller's only
 * one. Faults are gathered by index, so a refused batch says everything wrong with it at once.
 */
function organizationsOf(events: EventCreate[], reachable: string[], issues: ValidationIssue[]): string[] {
  return events.map((event, index) => {
    const named = event.organization_id ?? (reachable.length === 1 ? reachable[0] : undefined);
    if (!named || !reachable.includes(named)) {
      issues.push({ location: "body", path: ["events", index, "organization_id"], message: "Organization not found or not yours.", code: "organization_id", input: event.organization_id ?? null });
    }
    return named ?? "";
  });
}

/**
 * Each event's parent, as Polar finds it: the seller's event with that id or external id, one written
 * before (which wins, as a batch event sending its external id again is skipped) or one of the batch.
 * Another seller's event, an unknown one, or a batch whose events would descend from themselves is
 * refused at the event's index.
 */
async function parentsOf(db: Knex, organizationId: string, indexed: { event: EventCreate; index: number }[], eventIds: string[], issues: ValidationIssue[]): Promise<(string | null)[]> {
  const references = [...new Set(indexed.flatMap(({ event }) => (typeof event.parent_id === "string" ? [event.parent_id] : [])))];
  if (references.length === 0) return indexed.map(() => null);
  const written = await eventsReferenced(db, organizationId, references);
  const known = new Map(written.flatMap((event) => (event.external_id ? [[event.external_id, event.id] as const] : [])));
  for (const event of written) known.set(event.id, event.id);
  indexed.forEach(({ event }, position) => {
    if (event.external_id && !known.has(event.external_id)) known.set(event.external_id, eventIds[position] ?? "");
  });
  const refuse = (index: number, message: string, input: string) => issues.push({ location: "body", path: ["events", index, "parent_id"], message, code: "parent_id", input });
  const parents = indexed.map(({ event, index }) => {
    if (typeof event.parent_id !== "string") return null;
    const parent = known.get(event.parent_id);
    if (!parent) refuse(index, "Parent event not found.", event.parent_id);
    return parent ?? null;
  });
  // Only the batch's own events can close a circle: written ones have parents written before them.
  const parentOfId = new Map(eventIds.map((id, position) => [id, parents[position] ?? null]));
  indexed.forEach(({ event, index }, position) => {
    let ancestor = parents[position] ?? null;
    for (let steps = 0; ancestor !== null && steps < indexed.length; steps++) {
      if (ancestor === eventIds[position]) {
        refuse(index, "The event would be its own ancestor.", event.parent_id ?? "");
        break;
      }
      ancestor = parentOfId.get(ancestor) ?? null;
    }
  });
  return parents;
}

/**
 * The events of one seller, as rows with their customers resolved: a customer id must be the
 * seller's, an external id need not be known yet. An event cannot have happened after the seller's
 * now, which their sandbox's test clock may have moved ahead: usage is sent "during" a clocked month.
 */
async function draftsFor(db: Knex, organizationId: string, indexed: { event: EventCreate; index: number }[], issues: ValidationIssue[]): Promise<UsageEventDraft[]> {
  const customerIds = [...new Set(indexed.flatMap(({ event }) => (event.customer_id ? [event.customer_id] : [])))];
  const externalIds = [...new Set(indexed.flatMap(({ event }) => (event.external_customer_id ? [event.external_customer_id] : [])))];
  const known = await customersNamed(db, [organizationId], customerIds, externalIds);
  const byId = new Set(known.map((customer) => customer.id));
  const byExternalId = new Map(known.flatMap((customer) => (customer.external_id ? [[customer.external_id, customer.id] as const] : [])));
  const now = await sellerNow(db, organizationId);
  const eventIds = timeOrderedIds(indexed.length);
  const parents = await parentsOf(db, organizationId, indexed, eventIds, issues);
  return indexed.map(({ event, index }, position) => {
    if (event.customer_id && !byId.has(event.customer_id)) {
      issues.push({ location: "body", path: ["events", index, "customer_id"], message: "Customer not found.", code: "customer_id", input: event.customer_id });
    }
    if (event.timestamp && event.timestamp > now) {
      issues.push({ location: "body", path: ["events", index, "timestamp"], message: "Timestamp must be in the past.", code: "value_error", input: event.timestamp.toISOString() });
    }
    return {
      id: eventIds[position] ?? "",
      organization_id: organizationId,
      name: event.name,
      timestamp: event.timestamp ?? now,
      customer_id: event.customer_id ?? (event.external_customer_id ? (byExternalId.get(event.external_customer_id) ?? null) : null),
      external_customer_id: event.external_customer_id ?? null,
      external_id: event.external_id ?? null,
      parent_id: parents[position] ?? null,
      metadata: event.metadata ?? {},
    };
  });
}

/**
 * Ingests a batch whole or not at all: any fault refuses it with every fault by index. Events
 * whose external_id was already sent are skipped and counted as duplicates. A name not seen before
 * gets its event type with the events. The measurer adds the written events to meters and customer
 * meters right after.
 */
export async function ingestEvents(db: Knex, units: Units, reachable: string[], events: EventCreate[], wakeMeasurer: () => void): Promise<{ inserted: number; duplicates: number }> {
  const issues: ValidationIssue[] = [];
  const organizations = organizationsOf(events, reachable, issues);
  const bySeller = new Map<string, { event: EventCreate; index: number }[]>();
  events.forEach((event, index) => {
    const organizationId = organizations[index] ?? "";
    const group = bySeller.get(organizationId) ?? [];
    group.push({ event, index });
    bySeller.set(organizationId, group);
  });
  const drafts = new Map<string, UsageEventDraft[]>();
  for (const [organizationId, indexed] of bySeller) drafts.set(organizationId, await draftsFor(db, organizationId, indexed, issues));
  if (issues.length > 0) throw new ValidationError(issues.sort((a, b) => Number(a.path[1]) - Number(b.path[1])));

  const inserted = await units.run(async (unit) => {
    let written = 0;
    await ensureEventTypes(unit.db, [...drafts.values()].flat());
    for (const sellerEvents of drafts.values()) written += (await appendEvents(unit.db, sellerEvents)).size;
    unit.afterCommit(wakeMeasurer);
    return written;
  });
  return { inserted, duplicates: events.length - inserted };
}

/** Events as Polar's UserEvent, with their customers and child counts read for all at once. */
export async function eventsJson(db: Knex, rows: UsageEventRow[]) {
  const customers = await customersWithIds(db, [...new Set(rows.flatMap((row) => (row.customer_id ? [row.customer_id] : [])))]);
  const children = await childCounts(db, rows);
  const labels = await labelsOfEvents(db, rows);
  return rows.map((row, index) =>
    eventJson(
      row,
      customers.find((customer) => customer.id === row.customer_id),
      children.get(row.id) ?? 0,
      labels[index] ?? row.name,
    ),
  );
}

/** What a list of events asks for, as Polar's `GET /v1/events/` takes it. */
export interface EventsQuery {
  organization_id?: string[];
  customer_id?: string[];
  external_customer_id?: string[];
  meter_id?: string;
  filter?: Filter;
  name?: string[];
  source?: string[];
  start_timestamp?: Date;
  end_timestamp?: Date;
  query?: string;
  parent_id?: string;
  depth?: number;
}

/**
 * The customers asked for, each as Polar matches them: a customer's events were sent with their id
 * or with their external id (perhaps before the customer existed), and either way they are theirs.
 */
async function customerMatches(db: Knex, organizationIds: string[], query: EventsQuery): Promise<CustomerMatch[]> {
  const matches: CustomerMatch[] = [];
  if (query.customer_id) {
    const named = await customersNamed(db, organizationIds, query.customer_id, []);
    matches.push({ customerIds: query.customer_id, externalCustomerIds: named.flatMap((customer) => (customer.external_id ? [customer.external_id] : [])) });
  }
  if (query.external_customer_id) {
    const named = await customersNamed(db, organizationIds, [], query.external_customer_id);
    matches.push({ customerIds: named.map((customer) => customer.id), externalCustomerIds: query.external_customer_id });
  }
  return matches;
}

/**
 * One page of the sellers' events. A meter narrows them to those it measures: its filter passes them
 * and they carry what it aggregates. A parent without a depth lists its direct children.
 */
export async function listEvents(db: Knex, organizationIds: string[], query: EventsQuery, metadata: Map<string, string[]>, page: Parameters<typeof pageOfEvents>[2]) {
  const meter = query.meter_id ? await findMeter(db, query.meter_id) : undefined;
  if (query.meter_id && (!meter || !organizationIds.includes(meter.organization_id))) {
    // A business rule (value_error), not the input's shape: the id is well formed, it names no meter of the seller's.
    throw new ValidationError([{ location: "query", path: ["meter_id"], message: "Meter not found.", code: "value_error", input: query.meter_id }]);
  }
  const filter: EventFilter = {
    ...query,
    organizationIds,
    customers: await customerMatches(db, organizationIds, query),
    filters: query.filter ? [query.filter] : [],
    meter,
    metadata,
    query: query.query === undefined ? undefined : { text: query.query, customerIds: customerIdsMatching(db, organizationIds, query.query) },
    hierarchy: query.depth === undefined && query.parent_id === undefined ? undefined : { depth: query.depth ?? 1, parentId: query.parent_id },
  };
  const { rows, total } = await pageOfEvents(db, filter, page);
  return { items: await eventsJson(db, rows), total };
}

/** What a list of names or event types asks for, as Polar's `GET /v1/events/names` and `GET /v1/event-types/` take it. */
export interface NamesQuery {
  organization_id?: string[];
  customer_id?: string[];
  external_customer_id?: string[];
  source?: string[];
  query?: string;
  root_events?: boolean;
  parent_id?: string;
}

/** The events a list of names counts: those of the sellers asked for (of those the caller reaches), narrowed as asked. */
async function namesFilter(db: Knex, organizationIds: string[], query: NamesQuery): Promise<NameStatsFilter> {
  const sellers = query.organization_id ? organizationIds.filter((id) => query.organization_id?.includes(id)) : organizationIds;
  return {
    organizationIds: sellers,
    source: query.source,
    customers: query.customer_id || query.external_customer_id ? await customerMatches(db, sellers, query) : undefined,
    rootsOnly: query.root_events,
    parentId: query.parent_id,
    query: query.query,
  };
}

/** One page of the names the sellers' events carry, each with its label as the sellers' event types give it. */
export async function listEventNames(db: Knex, organizationIds: string[], query: NamesQuery, page: Parameters<typeof pageOfEventNames>[2]) {
  const filter = await namesFilter(db, organizationIds, query);
  const { rows, total } = await pageOfEventNames(db, filter, page);
  const labels = await labelsOfNames(db, filter.organizationIds, rows.map((row) => row.name));
  return { items: rows.map((row) => eventNameJson(row, labels.get(row.name) ?? row.name)), total };
}

/** One page of the sellers' event types, with the statistics of their events as the query narrows them. */
export async function listEventTypes(db: Knex, organizationIds: string[], query: NamesQuery, page: Parameters<typeof pageOfEventTypes>[2]) {
  return pageOfEventTypes(db, await namesFilter(db, organizationIds, query), page);
}
