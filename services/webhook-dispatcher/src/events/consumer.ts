import { on, randomId, type ConsumerDefinition } from "@tollgate/kit";
import { billingEvents, WEBHOOK_EVENT_TYPES } from "@tollgate/proto";
import type { Dispatcher } from "../dispatcher.js";
import { subscribedEndpoints } from "../endpoints/endpoints.sql.js";
import { insertEvents } from "./events.sql.js";

/**
 * Turns each billing event into one stored event per enabled endpoint of its organization that wants
 * its type, in the consumer's transaction (so the bus delivering it twice stores it once), then wakes
 * the scheduler once that transaction has committed.
 */
export function billingEventsConsumer(dispatcher: Dispatcher): ConsumerDefinition {
  return {
    name: "webhook-dispatcher-billing-events",
    batchSize: 256,
    handlers: WEBHOOK_EVENT_TYPES.map((type) =>
      on(billingEvents[type], async (event, { trx }) => {
        const { organization_id: organizationId, payload } = event.data;
        const targets = await subscribedEndpoints(trx, organizationId, type);
        if (targets.length === 0) return;
        const body = JSON.stringify({ type, timestamp: event.occurred_at, data: payload });
        await insertEvents(
          trx,
          targets.map((endpoint) => ({ id: randomId(32), endpoint_id: endpoint.id, organization_id: organizationId, source_event_id: event.id, type, payload: body })),
        );
        trx.executionPromise.then(() => dispatcher.wakeScheduler(), () => undefined);
      }),
    ),
  };
}
