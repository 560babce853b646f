import { randomId } from "@tollgate/kit";
import type { EndpointRow } from "../endpoints/endpoints.sql.js";
import type { WebhookEventRow } from "./events.sql.js";

/**
 * The type of the event a seller sends to try an endpoint. Polar has none; it is Tollgate's own, so
 * that no handler mistakes it for a real customer's or order's event. The SDK's `validateEvent`
 * verifies its signature, then refuses it as a type it does not know.
 */
export const TEST_EVENT_TYPE = "webhook.test";

/**
 * A test event bound for one endpoint, shaped as every payload is (`{type, timestamp, data}`), stored
 * due now: the scheduler signs, sends, retries and logs it as any other.
 */
export function testEventFor(endpoint: Pick<EndpointRow, "id" | "organization_id" | "url">, now = new Date()): Pick<WebhookEventRow, "id" | "endpoint_id" | "organization_id" | "source_event_id" | "type" | "payload" | "run_at"> {
  const id = randomId(32);
  const data = { id, endpoint_id: endpoint.id, organization_id: endpoint.organization_id, url: endpoint.url, message: "A test event sent from Tollgate. Nothing happened to any customer, order or subscription." };
  return {
    id,
    endpoint_id: endpoint.id,
    organization_id: endpoint.organization_id,
    // No bus event stands behind it: its own id keeps it apart from every other.
    source_event_id: `test_${id}`,
    type: TEST_EVENT_TYPE,
    payload: JSON.stringify({ type: TEST_EVENT_TYPE, timestamp: now.toISOString(), data }),
    run_at: now,
  };
}
