import type { UnitOfWork } from "@tollgate/kit";
import { billingEvents, type WebhookEventType } from "@tollgate/proto";

/**
 * The events that change a customer's state (which shows the customer, their subscriptions and their
 * benefit grants): customers/announce.ts's `announceCustomerEvent` announces them and schedules
 * customer.state_changed. A deleted customer has no state to announce, and the announcement itself
 * changes nothing.
 */
export type CustomerStateEventType = Exclude<Extract<WebhookEventType, `customer.${string}` | `subscription.${string}` | `benefit_grant.${string}`>, "customer.deleted" | "customer.state_changed">;

/** The events that change no customer's state. */
export type StatelessEventType = Exclude<WebhookEventType, CustomerStateEventType>;

/**
 * Announces `payload` (the resource as the API shows it) as billing events of the types given, in
 * that order, with the unit's other changes: the one way billing tells sellers' webhooks. Its types
 * are checked by the callers (`announceBilling` here, `announceCustomerEvent` in customers/).
 */
export function announceEvents(unit: UnitOfWork, types: WebhookEventType[], organizationId: string, payload: object): void {
  unit.announce(
    types.map((each) => billingEvents[each]),
    { organization_id: organizationId, payload: payload as Record<string, unknown> },
  );
}

/**
 * Announces events that change no customer's state. This file is shared by every tier, so it knows
 * nothing of customers: an event that changes a customer's state goes through customers/announce.ts,
 * which the type of `type` enforces.
 */
export function announceBilling(unit: UnitOfWork, type: StatelessEventType | StatelessEventType[], organizationId: string, payload: object): void {
  announceEvents(unit, Array.isArray(type) ? type : [type], organizationId, payload);
}
