import type { UnitOfWork } from "@tollgate/kit";
import type { WebhookEventType } from "@tollgate/proto";
import { announceEvents, type CustomerStateEventType } from "../events.js";
import { scheduleStateChanges } from "./customers.sql.js";

/** The customer whose state an event changes, if it changes one (see `CustomerStateEventType`). */
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
 * Announces events about a customer, their subscriptions or their benefit grants, as `announceEvents`
 * does, and schedules the announcement of the customer's new state (customer.state_changed) with the
 * unit's changes, so no flow has to remember it.
 */
export function announceCustomerEvent(unit: UnitOfWork, type: CustomerStateEventType | CustomerStateEventType[] | "customer.deleted", organizationId: string, payload: object): void {
  const types = Array.isArray(type) ? type : [type];
  announceEvents(unit, types, organizationId, payload);
  const customerId = types.map((each) => customerChangedBy(each, payload)).find((id) => id !== null);
  if (!customerId) return;
  const scheduled = scheduledIn.get(unit) ?? new Set<string>();
  if (scheduled.has(customerId)) return;
  scheduled.add(customerId);
  scheduledIn.set(unit, scheduled);
  unit.change(scheduleStateChanges(unit.db, [customerId]));
}
