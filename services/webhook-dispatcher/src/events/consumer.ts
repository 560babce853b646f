import { on, type ConsumerDefinition } from "@tollgate/kit";
import { billingEvents, WEBHOOK_EVENT_TYPES } from "@tollgate/proto";
import { insertEventForSubscribers } from "./events.sql.js";

/**
 * Turns each billing event into one stored event per enabled endpoint of its organization that wants
 * its type, in the consumer's transaction (so the bus delivering it twice stores it once), then wakes
 * the scheduler once that transaction has committed.
 */
export function billingEventsConsumer(wakeScheduler: () => void): ConsumerDefinition {
  return {
    name: "webhook-dispatcher-billing-events",
    batchSize: 256,
    handlers: WEBHOOK_EVENT_TYPES.map((type) =>
      on(billingEvents[type], async (event, { trx, unit }) => {
        const { organization_id: organizationId, payload } = event.data;
        const body = JSON.stringify({ type, timestamp: event.occurred_at, data: payload });
        await insertEventForSubscribers(trx, { organization_id: organizationId, source_event_id: event.id, type, payload: body });
        unit.afterCommit(wakeScheduler);
      }),
    ),
  };
}
