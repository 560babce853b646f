/** What the whole-stack runs (bench/scale, bench/chaos) read back from every service's schema once the load has stopped. */
import type { Knex } from "@tollgate/kit";

/** Every service's schema: each holds an outbox, an inbox and dead letters of its own. */
export const SCHEMAS = ["auth", "organization", "billing", "webhooks"] as const;

export interface CheckoutRow {
  id: string;
  status: string;
  orders: number;
  /** Successful payments made for it. */
  charges: number;
}

/** Checkouts that were confirmed (and so may have been paid), with how many orders and successful payments each has. */
export async function confirmedCheckouts(db: Knex): Promise<CheckoutRow[]> {
  const { rows } = await db.raw<{ rows: CheckoutRow[] }>(
    `select checkout.id, checkout.status,
       (select count(*) from billing.orders o where o.checkout_id = checkout.id)::int as orders,
       (select count(*) from billing.payments payment where payment.checkout_id = checkout.id and payment.status = 'succeeded')::int as charges
     from billing.checkouts checkout where checkout.status in ('confirmed', 'succeeded', 'failed')`,
  );
  return rows;
}

export interface GrantRow {
  /** A one-time purchase's order, or a subscription: what a benefit is granted for. */
  purchase: string;
  benefit_id: string;
  grants: number;
  /** Of those, how many are granted now (not revoked, not waiting on the customer). */
  granted: number;
}

/** For each paid one-time order and each live subscription, each benefit of its product and the grants it has for it. */
export async function purchaseGrants(db: Knex): Promise<GrantRow[]> {
  const grants = (source: string, alias: string) =>
    `(select count(*) from billing.benefit_grants g where g.${source} = ${alias}.id and g.benefit_id = link.benefit_id)::int as grants,
     (select count(*) from billing.benefit_grants g where g.${source} = ${alias}.id and g.benefit_id = link.benefit_id and g.granted_at is not null and g.revoked_at is null)::int as granted`;
  const { rows } = await db.raw<{ rows: GrantRow[] }>(
    `select 'order ' || purchase.id as purchase, link.benefit_id, ${grants("order_id", "purchase")}
     from billing.orders purchase join billing.product_benefits link on link.product_id = purchase.product_id
     where purchase.billing_reason = 'purchase' and purchase.status in ('paid', 'partially_refunded')
     union all
     select 'subscription ' || subscription.id, link.benefit_id, ${grants("subscription_id", "subscription")}
     from billing.subscriptions subscription join billing.product_benefits link on link.product_id = subscription.product_id
     where subscription.status in ('active', 'trialing')`,
  );
  return rows;
}

export interface RefundRow {
  id: string;
  order_id: string;
  status: string;
  amount: number;
  /** The Idempotency-Key the load asked for it with, kept in its metadata. */
  load_key: string | null;
}

export async function refunds(db: Knex): Promise<RefundRow[]> {
  const { rows } = await db.raw<{ rows: RefundRow[] }>("select id, order_id, status, amount, metadata->>'load_key' as load_key from billing.refunds");
  return rows;
}

/** Orders with refunds: what each says was refunded, and what its successful refunds add up to. */
export async function refundedOrders(db: Knex): Promise<{ id: string; refunded_amount: number; refunds_total: number }[]> {
  const { rows } = await db.raw<{ rows: { id: string; refunded_amount: number; refunds_total: number }[] }>(
    `select o.id, o.refunded_amount, coalesce(sum(r.amount) filter (where r.status = 'succeeded'), 0)::int as refunds_total
     from billing.orders o join billing.refunds r on r.order_id = o.id group by o.id`,
  );
  return rows;
}

export async function paymentJobsLeft(db: Knex): Promise<number> {
  const { rows } = await db.raw<{ rows: { count: number }[] }>("select count(*)::int as count from billing.checkout_payment_jobs");
  return rows[0]?.count ?? 0;
}

/** Subscriptions due for renewal by their seller's clock and not yet renewed (billing's worker renews those a clock advance left). */
export async function renewalsDue(db: Knex): Promise<number> {
  const { rows } = await db.raw<{ rows: { count: number }[] }>(
    `select count(*)::int as count from billing.subscriptions subscription join billing.organizations seller on seller.id = subscription.organization_id
     where subscription.next_action_at <= now() + make_interval(secs => seller.clock_offset_seconds)`,
  );
  return rows[0]?.count ?? 0;
}

/** Customers whose changed state billing has yet to announce (it waits a moment to announce several changes as one). */
export async function customerStatesPending(db: Knex): Promise<number> {
  const { rows } = await db.raw<{ rows: { count: number }[] }>("select count(*)::int as count from billing.customer_state_changes");
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

/** Committed events not yet published, in each schema's outbox. */
export async function unpublishedEvents(db: Knex): Promise<Record<(typeof SCHEMAS)[number], number>> {
  const { rows } = await db.raw<{ rows: Record<(typeof SCHEMAS)[number], number>[] }>(
    `select ${SCHEMAS.map((schema) => `(select count(*) from ${schema}.outbox where published_at is null)::int as ${schema}`).join(", ")}`,
  );
  const [counts] = rows;
  if (!counts) throw new Error("the outbox count answered no row");
  return counts;
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
