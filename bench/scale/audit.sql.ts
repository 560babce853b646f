/** What the scale run reads back from every service's schema once the load has stopped. */
import type { Knex } from "@tollgate/kit";

/** Every service's schema: each holds an outbox, an inbox and dead letters of its own. */
export const SCHEMAS = ["auth", "organization", "billing", "webhooks"] as const;

export interface CheckoutRow {
  id: string;
  status: string;
  orders: number;
}

/** Checkouts that were confirmed (and so may have been paid), with how many orders each has. */
export async function confirmedCheckouts(db: Knex): Promise<CheckoutRow[]> {
  const { rows } = await db.raw<{ rows: CheckoutRow[] }>(
    `select checkout.id, checkout.status, (select count(*) from billing.orders o where o.checkout_id = checkout.id)::int as orders
     from billing.checkouts checkout where checkout.status in ('confirmed', 'succeeded', 'failed')`,
  );
  return rows;
}

export async function paymentJobsLeft(db: Knex): Promise<number> {
  const { rows } = await db.raw<{ rows: { count: number }[] }>("select count(*)::int as count from billing.checkout_payment_jobs");
  return rows[0]?.count ?? 0;
}

export interface SubscriptionRow {
  id: string;
  status: string;
  started_at: Date;
  current_period_start: Date;
  /** When it next needs renewing, and the seller's clock now: a renewal past due was missed. */
  next_action_at: Date | null;
  seller_now: Date;
  /** Renewal orders, and of those how many have anything but exactly one successful charge. */
  cycle_orders: number;
  cycle_orders_not_charged_once: number;
}

export async function subscriptionRenewals(db: Knex): Promise<SubscriptionRow[]> {
  const { rows } = await db.raw<{ rows: SubscriptionRow[] }>(
    `select subscription.id, subscription.status, subscription.started_at, subscription.current_period_start, subscription.next_action_at,
       now() + make_interval(secs => seller.clock_offset_seconds) as seller_now,
       count(renewal.id)::int as cycle_orders,
       count(renewal.id) filter (where (select count(*) from billing.payments payment where payment.order_id = renewal.id and payment.status = 'succeeded') <> 1)::int as cycle_orders_not_charged_once
     from billing.subscriptions subscription
     join billing.organizations seller on seller.id = subscription.organization_id
     left join billing.orders renewal on renewal.subscription_id = subscription.id and renewal.billing_reason = 'subscription_cycle'
     group by subscription.id, seller.clock_offset_seconds`,
  );
  return rows;
}

export interface InboxRow {
  consumer: string;
  event_id: string;
}

/** Every event each consumer recorded as applied, from every schema's inbox. */
export async function inboxes(db: Knex): Promise<InboxRow[]> {
  const { rows } = await db.raw<{ rows: InboxRow[] }>(SCHEMAS.map((schema) => `select consumer, event_id::text from ${schema}.inbox`).join(" union all "));
  return rows;
}

export async function deadLetters(db: Knex): Promise<{ consumer: string; error: string }[]> {
  const { rows } = await db.raw<{ rows: { consumer: string; error: string }[] }>(SCHEMAS.map((schema) => `select consumer, error from ${schema}.dead_letters`).join(" union all "));
  return rows;
}

/** Committed events not yet published, over every schema's outbox. */
export async function unpublishedEvents(db: Knex): Promise<number> {
  const { rows } = await db.raw<{ rows: { count: number }[] }>(
    `select (${SCHEMAS.map((schema) => `(select count(*) from ${schema}.outbox where published_at is null)`).join(" + ")})::int as count`,
  );
  return rows[0]?.count ?? 0;
}

export interface WebhookEventRow {
  id: string;
  endpoint_id: string;
  source_event_id: string;
  status: string;
}

export async function webhookEvents(db: Knex): Promise<WebhookEventRow[]> {
  const { rows } = await db.raw<{ rows: WebhookEventRow[] }>("select id, endpoint_id, source_event_id, status from webhooks.webhook_events");
  return rows;
}

/** Backends of the run's database: their CPU is part of the run's. */
export async function backendPids(db: Knex, database: string): Promise<number[]> {
  const { rows } = await db.raw<{ rows: { pid: number }[] }>("select pid from pg_stat_activity where datname = ?", [database]);
  return rows.map((row) => row.pid);
}
