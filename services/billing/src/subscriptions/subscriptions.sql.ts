import type { Knex } from "@tollgate/kit";
import type { Metadata } from "../api/metadata.js";
import type { Interval } from "../api/dates.js";
import type { CustomFieldData } from "../checkouts/checkouts.sql.js";
import type { OrderLine } from "../orders/place.js";

export type SubscriptionStatus = "incomplete" | "incomplete_expired" | "trialing" | "active" | "past_due" | "canceled" | "unpaid";

export const CANCELLATION_REASONS = ["customer_service", "low_quality", "missing_features", "switched_service", "too_complex", "too_expensive", "unused", "other"] as const;

export interface SubscriptionRow {
  id: string;
  organization_id: string;
  customer_id: string;
  product_id: string;
  product_price_id: string;
  checkout_id: string | null;
  discount_id: string | null;
  /** When the discount was first taken off an order; null until then (a discount applied by an update waits for the next renewal). */
  discount_applied_at: Date | null;
  status: SubscriptionStatus;
  amount: number;
  currency: string;
  recurring_interval: Interval;
  recurring_interval_count: number;
  current_period_start: Date;
  current_period_end: Date;
  trial_start: Date | null;
  trial_end: Date | null;
  cancel_at_period_end: boolean;
  canceled_at: Date | null;
  started_at: Date | null;
  ends_at: Date | null;
  ended_at: Date | null;
  customer_cancellation_reason: (typeof CANCELLATION_REASONS)[number] | null;
  customer_cancellation_comment: string | null;
  payment_method_id: string | null;
  past_due_since: Date | null;
  dunning_attempts: number;
  next_action_at: Date | null;
  pending_prorations: OrderLine[];
  custom_field_data: CustomFieldData;
  metadata: Metadata;
  created_at: Date;
  modified_at: Date | null;
}

export type SubscriptionChanges = Partial<Omit<SubscriptionRow, "id" | "organization_id" | "created_at" | "modified_at">>;

export const subscriptions = (db: Knex) => db<SubscriptionRow>("subscriptions");

export const findSubscription = (db: Knex, id: string) => subscriptions(db).where({ id }).first();

/** pg would send a JS array as a Postgres array: the jsonb list goes as JSON text. */
const stored = <Changes extends { pending_prorations?: OrderLine[] }>(changes: Changes) =>
  changes.pending_prorations === undefined ? changes : { ...changes, pending_prorations: JSON.stringify(changes.pending_prorations) };

/** The insert of a new subscription, made in full beforehand: a change to write with others (ChangeSet). */
export const insertSubscription = (db: Knex, subscription: SubscriptionRow): Knex.QueryBuilder => db("subscriptions").insert(stored(subscription));

export async function updateSubscription(db: Knex, id: string, changes: SubscriptionChanges): Promise<SubscriptionRow> {
  const [row] = await db("subscriptions")
    .where({ id })
    .update({ ...stored(changes), modified_at: new Date() })
    .returning<SubscriptionRow[]>("*");
  if (!row) throw new Error(`subscription ${id} is gone`);
  return row;
}
