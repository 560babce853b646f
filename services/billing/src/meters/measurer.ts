import { PollingWorker, type Logger, type Units } from "@tollgate/kit";
import { scheduleStateChanges } from "../customers/customers.sql.js";
import { countEventNames, takeUnmeasured, type UnmeasuredEvent } from "../usage-events/usage-events.sql.js";
import { measure } from "./measurements.js";
import { holdMetersShared, metersOfOrganization } from "./meters.sql.js";

/** How many events one pass measures at most: a few seconds of ingestion at full speed. */
const EVENTS_A_PASS = 20_000;

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

/**
 * Measures ingested events: folds them into rollups, customer meters and event names, many batches
 * at once, in one transaction with taking them. Ingestion only appends, so concurrent batches never
 * wait on the rows every one of them would update; the rows a pass updates are updated once a pass.
 * Woken by each batch ingested here, and polling for those other replicas took. Customers whose
 * meters moved have their state announced once the burst settles (customer.state_changed, debounced).
 */
export class UsageMeasurer extends PollingWorker {
  constructor(private readonly desk: { units: Units; logger: Logger; config: { CUSTOMER_STATE_DEBOUNCE_MS: number } }) {
    super({ intervalMs: 250, logger: desk.logger, failure: "measuring usage events failed" });
  }

  protected pass(): Promise<void> {
    return this.drain(EVENTS_A_PASS, () =>
      this.desk.units.run(async ({ db }) => {
        const events = await takeUnmeasured(db, EVENTS_A_PASS);
        const bySeller = new Map<string, UnmeasuredEvent[]>();
        for (const event of events) {
          const sellerEvents = bySeller.get(event.organization_id) ?? [];
          sellerEvents.push(event);
          bySeller.set(event.organization_id, sellerEvents);
        }
        const customerIds: string[] = [];
        for (const [organizationId, sellerEvents] of [...bySeller].sort(([a], [b]) => (a < b ? -1 : 1))) {
          // Held until the pass commits: a meter being created waits, then measures these too.
          await holdMetersShared(db, organizationId);
          customerIds.push(...(await measure(db, organizationId, sellerEvents, await metersOfOrganization(db, organizationId))));
          await countEventNames(db, organizationId, namesOf(sellerEvents));
        }
        customerIds.sort();
        if (customerIds.length > 0) await scheduleStateChanges(db, customerIds, this.desk.config.CUSTOMER_STATE_DEBOUNCE_MS);
        return events.length;
      }),
    );
  }
}
