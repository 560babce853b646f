import type { UnitOfWork } from "@tollgate/kit";
import { billingEvents, type WebhookEventType } from "@tollgate/proto";

/**
 * Announces `payload` (the resource as the API shows it) as billing events of the types given, in
 * that order, with the unit's other changes: the one way billing tells sellers' webhooks.
 */
export function announceBilling(unit: UnitOfWork, type: WebhookEventType | WebhookEventType[], organizationId: string, payload: object): void {
  const types = Array.isArray(type) ? type : [type];
  unit.announce(
    types.map((each) => billingEvents[each]),
    { organization_id: organizationId, payload: payload as Record<string, unknown> },
  );
}
