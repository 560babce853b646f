import type { Knex, Outbox } from "@tollgate/kit";
import { billingEvents, type WebhookEventType } from "@tollgate/proto";

/**
 * Announces a billing event for sellers' webhooks inside the caller's transaction: `payload` is the
 * resource as the API shows it (dates become ISO strings on the way). Several types given are
 * written in that order with the one payload, in one statement.
 */
export async function emitBillingEvent(outbox: Outbox, trx: Knex.Transaction, type: WebhookEventType | WebhookEventType[], organizationId: string, payload: object): Promise<void> {
  const types = Array.isArray(type) ? type : [type];
  await outbox.emitEach(trx, types.map((each) => billingEvents[each]), { organization_id: organizationId, payload: JSON.parse(JSON.stringify(payload)) as Record<string, unknown> });
}
