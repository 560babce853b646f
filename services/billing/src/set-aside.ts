import { setAsideEndpoints, type Endpoint } from "@tollgate/kit";
import { EXPIRY_WORKER, PAYMENT_WORKER } from "./checkouts/checkouts.sql.js";
import { STATE_WORKER } from "./customers/customers.sql.js";
import { REMINDER_WORKER, RENEWAL_WORKER } from "./subscriptions/subscriptions.sql.js";
import { MEASUREMENT_WORKER } from "./usage-events/usage-events.sql.js";
import type { Parts } from "./parts.js";

/** A worker that a retried item is handed back to. */
interface Wakeable {
  wake(): void;
}

/**
 * Billing's background work a seller sees once it is set aside, under the scopes of what it works
 * on: `GET /v1/set-aside-work/` lists it, `POST /v1/set-aside-work/{id}/retry` tries an item again.
 */
export function setAsideWorkEndpoints({ db, access }: Pick<Parts, "db" | "access">, workers: { renewals: Wakeable; payments: Wakeable; checkoutExpiry: Wakeable; customerStates: Wakeable; measurer: Wakeable; reminders: Wakeable }): Endpoint[] {
  const { renewals, payments, checkoutExpiry, customerStates, measurer, reminders } = workers;
  return setAsideEndpoints("/v1/set-aside-work", {
    db,
    access,
    tag: "set-aside-work",
    workers: {
      [RENEWAL_WORKER]: { read: "subscriptions:read", write: "subscriptions:write", wake: () => renewals.wake() },
      [REMINDER_WORKER]: { read: "subscriptions:read", write: "subscriptions:write", wake: () => reminders.wake() },
      [PAYMENT_WORKER]: { read: "checkouts:read", write: "checkouts:write", wake: () => payments.wake() },
      [EXPIRY_WORKER]: { read: "checkouts:read", write: "checkouts:write", wake: () => checkoutExpiry.wake() },
      [STATE_WORKER]: { read: "customers:read", write: "customers:write", wake: () => customerStates.wake() },
      [MEASUREMENT_WORKER]: { read: "events:read", write: "events:write", wake: () => measurer.wake() },
    },
  });
}
