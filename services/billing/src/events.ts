import type { UnitOfWork } from "@tollgate/kit";
import { billingEvents, type WebhookEventType } from "@tollgate/proto";
import { scheduleStateChanges } from "./customers/customers.sql.js";

/**
 * The customer whose state an event changes, if it changes one: a customer's state shows the
 * customer, their subscriptions and their benefit grants (and meters, which measuring schedules).
 * A deleted customer has no state to announce, and the announcement itself changes nothing.
 */
function customerChangedBy(type: WebhookEventType, payload: object): string | null {
  const field = (name: string) => {
    const value = (payload as Record<string, unknown>)[name];
    return typeof value === "string" ? value : null;
  };
  if (type === "customer.deleted" || type === "customer.state_changed") return null;
  if (type.startsWith("customer.")) return field("id");
  if (type.startsWith("subscription.") || type.startsWith("benefit_grant.")) return field("customer_id");
  return null;
}

/** The customers whose state change each unit has scheduled already: once per customer per unit. */
const scheduledIn = new WeakMap<UnitOfWork, Set<string>>();

/**
 * Announces `payload` (the resource as the API shows it) as billing events of the types given, in
 * that order, with the unit's other changes: the one way billing tells sellers' webhooks. An event
 * that changes a customer's state schedules its announcement (customer.state_changed) here, so no
 * flow has to remember it.
 */
export function announceBilling(unit: UnitOfWork, type: WebhookEventType | WebhookEventType[], organizationId: string, payload: object): void {
  const types = Array.isArray(type) ? type : [type];
  unit.announce(
    types.map((each) => billingEvents[each]),
    { organization_id: organizationId, payload: payload as Record<string, unknown> },
  );
  const customerId = types.map((each) => customerChangedBy(each, payload)).find((id) => id !== null);
  if (!customerId) return;
  const scheduled = scheduledIn.get(unit) ?? new Set<string>();
  if (scheduled.has(customerId)) return;
  scheduled.add(customerId);
  scheduledIn.set(unit, scheduled);
  unit.change(scheduleStateChanges(unit.db, [customerId]));
}
