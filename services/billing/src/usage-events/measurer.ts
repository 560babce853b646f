import { isDatabaseUnreachable, PollingWorker, type Knex } from "@tollgate/kit";
import { lowerFirstUserEventAt, scheduleStateChanges, type FirstEventOf } from "../customers/customers.sql.js";
import { countEventNames, MEASUREMENT_WORKER, putBackFailed, takeUnmeasured, type UnmeasuredEvent } from "./usage-events.sql.js";
import { measure } from "./measurements.js";
import { holdMetersShared, metersOfOrganization } from "../meters/meters.sql.js";
import type { MeterDefinition } from "../meters/rollups.js";
import type { Parts } from "../parts.js";

/** How many events one pass measures at most: a few seconds of ingestion at full speed. */
const EVENTS_A_PASS = 20_000;

/**
 * How many savepoints a pass spends at most on one seller's events: their batch, then the halves of
 * a batch that failed, and so on. Finding one failing event among a full pass's 20,000 takes 31. The
 * pass (and so everyone's usage) waits no longer on a seller whose every event fails; the events left
 * untried go back in line for later passes.
 */
const TRIES_A_SELLER = 32;

/** A seller whose events a pass measures, with the meters they are measured by. */
interface Seller {
  organizationId: string;
  meters: MeterDefinition[];
}

/** How many times each name occurs in the events, and when first and last. */
function namesOf(events: UnmeasuredEvent[]) {
  const names = new Map<string, { name: string; occurrences: number; first_seen: Date; last_seen: Date }>();
  for (const event of events) {
    const seen = names.get(event.name) ?? { name: event.name, occurrences: 0, first_seen: event.timestamp, last_seen: event.timestamp };
    seen.occurrences += 1;
    if (event.timestamp < seen.first_seen) seen.first_seen = event.timestamp;
    if (event.timestamp > seen.last_seen) seen.last_seen = event.timestamp;
    names.set(event.name, seen);
  }
  return [...names.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** The first of the seller's own events (not the system's) about each customer they name. */
function firstUserEventsOf(events: UnmeasuredEvent[]): FirstEventOf[] {
  const firsts = new Map<string, FirstEventOf>();
  for (const event of events) {
    if (event.source !== "user" || (event.customer_id === null && event.external_customer_id === null)) continue;
    const key = event.customer_id ?? `external:${event.external_customer_id}`;
    const seen = firsts.get(key);
    if (!seen || event.timestamp < seen.at) firsts.set(key, { customerId: event.customer_id, externalId: event.customer_id ? null : event.external_customer_id, at: event.timestamp });
  }
  return [...firsts.values()];
}

/** The events by seller, sellers in a fixed order (concurrent passes take sellers' rows in the same order). */
function bySeller(events: UnmeasuredEvent[]): [string, UnmeasuredEvent[]][] {
  const sellers = new Map<string, UnmeasuredEvent[]>();
  for (const event of events) {
    const sellerEvents = sellers.get(event.organization_id) ?? [];
    sellerEvents.push(event);
    sellers.set(event.organization_id, sellerEvents);
  }
  return [...sellers].sort(([a], [b]) => (a < b ? -1 : 1));
}

/**
 * Measures ingested events: folds them into rollups, customer meters and event names, many batches
 * at once, in one transaction with taking them. Ingestion only appends, so concurrent batches never
 * wait on the rows every one of them would update; the rows a pass updates are updated once a pass.
 * Woken by each batch ingested here, and polling for those other replicas took. Customers whose
 * meters moved have their state announced once the burst settles (customer.state_changed, debounced).
 *
 * Each seller's events are measured in a savepoint of their own, so one seller's failure rolls back
 * that seller's part alone and everyone else's events are measured. The failing seller's events are
 * then halved (a bounded number of times a pass) until the events that fail alone are found; each of
 * those is counted, put back in line and, once it has failed too often, set aside for its seller to
 * see and send back. A failure for want of Postgres fails the pass as a whole, to be tried again.
 */
export class UsageMeasurer extends PollingWorker {
  constructor(private readonly parts: Pick<Parts, "units" | "logger" | "failures">) {
    super({ intervalMs: 250, logger: parts.logger, failure: "measuring usage events failed" });
  }

  protected pass(): Promise<void> {
    return this.drain(EVENTS_A_PASS, async () => {
      const { taken, measuredAfterFailing } = await this.parts.units.run(async ({ db }) => {
        const events = await takeUnmeasured(db, EVENTS_A_PASS);
        const putBack: string[] = [];
        for (const [organizationId, sellerEvents] of bySeller(events)) putBack.push(...(await this.measureSeller(db, organizationId, sellerEvents)));
        await putBackFailed(db, putBack);
        const notMeasured = new Set(putBack);
        return { taken: events.length, measuredAfterFailing: events.filter((event) => event.failed_before && !notMeasured.has(event.id)).map((event) => event.id) };
      });
      // Forgotten once the pass has committed: had it rolled back, those failures would still count.
      if (measuredAfterFailing.length > 0) await this.parts.failures.succeeded(MEASUREMENT_WORKER, measuredAfterFailing);
      return taken;
    });
  }

  /** Measures the seller's events apart from everyone else's; the ids of those to put back in line. */
  private async measureSeller(db: Knex, organizationId: string, events: UnmeasuredEvent[]): Promise<string[]> {
    // Held until the pass commits: a meter being created waits, then measures these too.
    await holdMetersShared(db, organizationId);
    return this.measureApart(db, { organizationId, meters: await metersOfOrganization(db, organizationId) }, events, { left: TRIES_A_SELLER });
  }

  /**
   * Measures the seller's events in a savepoint; if that fails, each half in a savepoint of its own,
   * and so on down to single events, while the seller's tries last. The ids of the events to put back
   * in line: those that failed alone (their failures counted) and those left untried.
   */
  private async measureApart(db: Knex, seller: Seller, events: UnmeasuredEvent[], tries: { left: number }): Promise<string[]> {
    if (tries.left === 0) return events.map((event) => event.id);
    tries.left -= 1;
    try {
      await db.transaction((savepoint) => this.addUsage(savepoint, seller, events));
      return [];
    } catch (error) {
      if (isDatabaseUnreachable(error)) throw error;
      const [event] = events;
      if (events.length === 1 && event) {
        await this.parts.failures.failed({ worker: MEASUREMENT_WORKER, item: event.id, organizationId: seller.organizationId }, error);
        return [event.id];
      }
      const half = Math.ceil(events.length / 2);
      return [...(await this.measureApart(db, seller, events.slice(0, half), tries)), ...(await this.measureApart(db, seller, events.slice(half), tries))];
    }
  }

  /** Adds the seller's events to their meters, event names and customers' first events, and schedules their customers' state to be announced. */
  private async addUsage(db: Knex, { organizationId, meters }: Seller, events: UnmeasuredEvent[]): Promise<void> {
    const customerIds = await measure(db, organizationId, events, meters);
    await countEventNames(db, organizationId, namesOf(events));
    await lowerFirstUserEventAt(db, organizationId, firstUserEventsOf(events));
    if (customerIds.length > 0) await scheduleStateChanges(db, customerIds.sort());
  }
}
