import type { Knex, Outbox } from "@tollgate/kit";
import { billingEvents, type WebhookEventType } from "@tollgate/proto";

/**
 * Announces a billing event for sellers' webhooks inside the caller's transaction: `payload` is the
 * resource as the API shows it (dates become ISO strings on the way).
 */
export async function emitBillingEvent(outbox: Outbox, trx: Knex.Transaction, type: WebhookEventType, organizationId: string, payload: object): Promise<void> {
  await outbox.emit(trx, billingEvents[type], { organization_id: organizationId, payload: JSON.parse(JSON.stringify(payload)) as Record<string, unknown> });
}
