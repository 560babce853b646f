import { claim, LeaseKeeper, pageOf, whereAnyOf, whileHeld, WorkFailures, type Knex, type Lease, type Logger, type Sort, type Statement } from "@tollgate/kit";
import { sellerNowSql } from "../test-clock/clock.js";
import { customerIdsWithExternalIds } from "../customers/customers.sql.js";
import { whereMetadata, type Metadata } from "../db/metadata.js";
import type { BatchPosition } from "../db/batches.js";
import { rowsFromJson } from "../db/json-rows.js";
import { whereProductOrSellerNamed } from "../products/products.sql.js";
import type { DiscountRow } from "../discounts/discounts.sql.js";
import type { Interval } from "../calendar/intervals.js";
import type { Answers } from "../custom-fields/answers.js";
import type { OrderLine } from "../orders/lines.js";
import type { MeterPeriodEnd } from "../customer-meters/customer-meters.sql.js";

/** What a period that ended leaves to bill and to carry into the next one. */
export interface PeriodUsage {
  /** One order line per metered price: unit_amount × (consumed − credited), capped. */
  lines: OrderLine[];
  /** How each customer meter the period used ends. */
  periods: MeterPeriodEnd[];
  /** Whether the customer used a meter that a metered price bills. */
  used: boolean;
}

export type SubscriptionStatus = "incomplete" | "incomplete_expired" | "trialing" | "active" | "past_due" | "canceled" | "unpaid" | "paused";

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
  /** What a period costs: the price's amount, or for a seat-based price what its seats cost. */
  amount: number;
  /** The seats paid for, of a seat-based price; null for any other. */
  seats: number | null;
  currency: string;
  recurring_interval: Interval;
  recurring_interval_count: number;
  current_period_start: Date;
  current_period_end: Date;
  trial_start: Date | null;
  trial_end: Date | null;
  cancel_at_period_end: boolean;
  /** Asked to pause when the period ends; then `paused`, since `paused_at`, until resumed by hand or at `resumes_at`. */
  pause_at_period_end: boolean;
  paused_at: Date | null;
  resumes_at: Date | null;
  canceled_at: Date | null;
  started_at: Date | null;
  ends_at: Date | null;
  ended_at: Date | null;
  customer_cancellation_reason: (typeof CANCELLATION_REASONS)[number] | null;
  customer_cancellation_comment: string | null;
  payment_method_id: string | null;
  past_due_since: Date | null;
  dunning_attempts: number;
  /**
   * Why the past-due charge is tried next when it is: a card the customer gave for their
   * subscriptions, or the customer paying the order in the portal; null: the dunning schedule.
   */
  retry_trigger: "retry_payment_method_update" | "retry_customer" | null;
  next_action_at: Date | null;
  /** Until when the replica renewing it holds it. */
  leased_until: Date | null;
  /** An order a plan change opened, to be charged to the kept card at next_action_at before anything else. */
  charge_order_id: string | null;
  pending_prorations: OrderLine[];
  /** The usage a renewal in flight bills, kept under its claim until it settles (a retry bills the same). */
  renewal_usage: PeriodUsage | null;
  /** The end of the period the customer was last reminded of (customer-mails/reminders.ts). */
  reminded_for: Date | null;
  custom_field_data: Answers;
  metadata: Metadata;
  created_at: Date;
  modified_at: Date | null;
}

export type SubscriptionChanges = Partial<Omit<SubscriptionRow, "id" | "organization_id" | "created_at" | "modified_at">>;

export const subscriptions = (db: Knex) => db<SubscriptionRow>("subscriptions");

export const findSubscription = (db: Knex, id: string) => subscriptions(db).where({ id }).first();

/** pg would send a JS array as a Postgres array: the jsonb values go as JSON text. */
const stored = <Changes extends { pending_prorations?: OrderLine[]; renewal_usage?: PeriodUsage | null }>(changes: Changes) => ({
  ...changes,
  ...(changes.pending_prorations === undefined ? {} : { pending_prorations: JSON.stringify(changes.pending_prorations) }),
  ...(changes.renewal_usage ? { renewal_usage: JSON.stringify(changes.renewal_usage) } : {}),
});

/** The insert of a new subscription, made in full beforehand: a change to write with others (UnitOfWork.change). */
export const insertSubscription = (db: Knex, subscription: SubscriptionRow): Knex.QueryBuilder => db("subscriptions").insert(stored(subscription));

export async function updateSubscription(db: Knex, id: string, changes: SubscriptionChanges): Promise<SubscriptionRow> {
  const [row] = await db("subscriptions")
    .where({ id })
    .update({ ...stored(changes), modified_at: new Date() })
    .returning<SubscriptionRow[]>("*");
  if (!row) throw new Error(`subscription ${id} is gone`);
  return row;
}

/**
 * The renewal worker leases the subscription itself: a subscription is its own schedule
 * (next_action_at), which a jobs table would only repeat. Due in the seller's clock.
 */
const renewalLease: Lease = {
  table: "subscriptions",
  key: "id",
  runAt: "next_action_at",
  attempts: "lease_claims",
  // crosses into organizations: the seller's test clock says what is due.
  dueBy: (subscription) => `(select ${sellerNowSql("seller")} from organizations seller where seller.id = ${subscription}.organization_id)`,
};

/** The reminder worker's name for its items (subscriptions) in `set_aside_work`. */
export const REMINDER_WORKER = "subscription_reminder";

/** How long before its end a period is reminded of: a trial's end three days ahead, a yearly renewal a week ahead. */
export const REMINDER_LEAD = { trialing: "3 days", yearly: "7 days" } as const;

/**
 * Subscriptions whose customer is now due a reminder, locked (FOR UPDATE SKIP LOCKED): a trial ending
 * or a yearly plan renewing within its lead on the seller's clock, still going on, not yet reminded of
 * this period, and long enough that the reminder does not come with the purchase. None set aside, none
 * of `passOver`; only the one of `only` when it is given.
 */
export async function dueReminders(db: Knex, { limit, passOver, only }: { limit: number; passOver: string[]; only?: string }): Promise<SubscriptionRow[]> {
  const notSetAside = WorkFailures.notSetAside(REMINDER_WORKER, "item.id");
  const lead = `(case when item.status = 'trialing' then interval '${REMINDER_LEAD.trialing}' else interval '${REMINDER_LEAD.yearly}' end)`;
  const { rows } = await db.raw<{ rows: SubscriptionRow[] }>(
    // crosses into organizations: the seller's test clock says what is due.
    `select item.* from subscriptions item join organizations seller on seller.id = item.organization_id
     where (item.status = 'trialing' or (item.status = 'active' and item.recurring_interval = 'year'))
       and not item.cancel_at_period_end and item.ended_at is null
       and item.reminded_for is distinct from item.current_period_end
       and item.current_period_end - ${lead} <= ${sellerNowSql("seller")}
       and item.current_period_end > ${sellerNowSql("seller")}
       and item.current_period_end - ${lead} > item.current_period_start
       and ${notSetAside.sql} and not (item.id = any(?::text[])) ${only ? "and item.id = ?" : ""}
     order by item.current_period_end limit ? for update of item skip locked`,
    [...notSetAside.bindings, passOver, ...(only ? [only] : []), limit],
  );
  return rows;
}

/** Marks the subscription's period as reminded of. */
export const markReminded = (db: Knex, subscription: Pick<SubscriptionRow, "id" | "current_period_end">) =>
  db<SubscriptionRow>("subscriptions").where({ id: subscription.id }).update({ reminded_for: subscription.current_period_end });

/** The renewal worker's name for its items (subscriptions) in `set_aside_work`. */
export const RENEWAL_WORKER = "subscription_renewal";

/** A subscription as the renewal worker claimed it, with the count of its claims, which tells this one from the next. */
export type ClaimedSubscription = SubscriptionRow & { leased_until: Date; next_action_at: Date; lease_claims: number };

/** Keeps the subscriptions a replica claimed held for as long as it is renewing them. */
export const renewalKeeper = (db: Knex, leaseMs: number, logger: Logger) =>
  new LeaseKeeper<ClaimedSubscription>({ db, lease: renewalLease, leaseMs, logger, claimOf: (subscription) => ({ key: subscription.id, mark: subscription.lease_claims }) });

/** What the renewal worker leaves alone: a subscription set aside, and those of `passOver`; `where` (SQL over `item`) narrows it further. */
function renewable(passOver: string[], where?: Statement): Statement {
  const notSetAside = WorkFailures.notSetAside(RENEWAL_WORKER, "item.id");
  return {
    sql: `${notSetAside.sql} and not (item.id = any(?::text[]))${where ? ` and ${where.sql}` : ""}`,
    bindings: [...notSetAside.bindings, passOver, ...(where?.bindings ?? [])],
  };
}

/**
 * Due subscriptions, oldest due first, held for `leaseMs`: none set aside, none of `passOver` (failed
 * earlier in this pass); `where` (SQL over `item`) narrows them.
 */
export const claimDueSubscriptions = (db: Knex, options: { limit: number; leaseMs: number; passOver: string[]; where?: Statement }) =>
  claim<ClaimedSubscription>(db, renewalLease, { limit: options.limit, leaseMs: options.leaseMs, where: renewable(options.passOver, options.where) });

/**
 * When the first lease held on a due subscription `where` picks (SQL over `item`), neither set aside
 * nor of `passOver`, runs out unless its replica extends it; null when none is held.
 */
export async function dueHeldUntil(db: Knex, where: Statement, passOver: string[]): Promise<Date | null> {
  const narrowed = renewable(passOver, where);
  const { rows } = await db.raw<{ rows: { until: Date | null }[] }>(
    `select min(item.leased_until) as until from subscriptions item where item.next_action_at <= ${renewalLease.dueBy?.("item") ?? "now()"} and item.leased_until >= now() and ${narrowed.sql}`,
    narrowed.bindings,
  );
  return rows[0]?.until ?? null;
}

/** Whether a subscription `where` picks (SQL over `item`), neither set aside nor of `passOver`, is due but held by a replica renewing it. */
export const dueButHeld = async (db: Knex, where: Statement, passOver: string[]): Promise<boolean> => (await dueHeldUntil(db, where, passOver)) !== null;

/**
 * Takes back the claim on a subscription, in the transaction that settles its due moment, and locks
 * it: the row as it is now, or nothing when the claim no longer holds it or the moment it was
 * claimed for has passed (another replica, or a retry, settled it).
 */
export async function settleClaim(trx: Knex, claimed: ClaimedSubscription): Promise<SubscriptionRow | undefined> {
  const [row] = await whileHeld(renewalLease, trx("subscriptions").where({ next_action_at: claimed.next_action_at }).update({ leased_until: null }), { key: claimed.id, mark: claimed.lease_claims }).returning<SubscriptionRow[]>("*");
  return row;
}

/** Keeps the usage a renewal is about to bill on the subscription while its claim holds it: whether it did. */
export const keepRenewalUsage = async (db: Knex, claimed: ClaimedSubscription, usage: PeriodUsage): Promise<boolean> =>
  (await whileHeld(renewalLease, db("subscriptions").update({ renewal_usage: JSON.stringify(usage) }), { key: claimed.id, mark: claimed.lease_claims })) > 0;

/** Lets go of a claimed subscription left as it was. */
export const releaseClaim = (db: Knex, claimed: ClaimedSubscription) =>
  whileHeld(renewalLease, db("subscriptions").update({ leased_until: null }), { key: claimed.id, mark: claimed.lease_claims });

/** A subscription locked for a change, so a renewal settling now sees the change or precedes it. */
export const lockSubscription = (trx: Knex, id: string) => subscriptions(trx).where({ id }).forUpdate().first();

/**
 * Statuses of a subscription that will charge a card again: a running one, and a paused one, whose
 * resume is charged.
 */
const LIVE = ["trialing", "active", "past_due", "paused"] as const;

/** The customer's live subscriptions renew with the card `paymentMethodId` from now on; past-due ones are due again at `now`: how many. */
export async function useCard(trx: Knex, customerId: string, paymentMethodId: string, now: Date): Promise<number> {
  await subscriptions(trx).where({ customer_id: customerId }).whereIn("status", LIVE).update({ payment_method_id: paymentMethodId, modified_at: new Date() });
  return subscriptions(trx).where({ customer_id: customerId, status: "past_due" }).update({ next_action_at: now, retry_trigger: "retry_payment_method_update", modified_at: new Date() });
}

/** The past-due subscription renews with the card `paymentMethodId` from now on, and its charge is due again at `now`: the customer is paying it in the portal. */
export const retryWithCard = (trx: Knex, subscriptionId: string, paymentMethodId: string, now: Date) =>
  subscriptions(trx).where({ id: subscriptionId, status: "past_due" }).update({ payment_method_id: paymentMethodId, next_action_at: now, retry_trigger: "retry_customer", modified_at: new Date() });

/** How many of a customer's live subscriptions renew with the card `paymentMethodId`. */
export async function liveSubscriptionsOnCard(trx: Knex, customerId: string, paymentMethodId: string): Promise<number> {
  const [row] = await subscriptions(trx).where({ customer_id: customerId, payment_method_id: paymentMethodId }).whereIn("status", LIVE).count<{ count: string }[]>({ count: "*" });
  return Number(row?.count ?? 0);
}

/** Moves a customer's live subscriptions off the card `from` onto `to`. */
export const moveToCard = (trx: Knex, customerId: string, from: string, to: string) =>
  subscriptions(trx).where({ customer_id: customerId, payment_method_id: from }).whereIn("status", LIVE).update({ payment_method_id: to, modified_at: new Date() });


/** What a seller's list of subscriptions is narrowed to: the sellers the caller may read, and the filters asked for. */
export interface SubscriptionFilter {
  organizationIds: string[];
  filters: Partial<Record<"organization_id" | "product_id" | "customer_id" | "discount_id", string[]>> & {
    external_customer_id?: string[];
    status?: SubscriptionStatus[];
    customer_cancellation_reason?: (typeof CANCELLATION_REASONS)[number][];
    active?: boolean;
    cancel_at_period_end?: boolean;
  } & Partial<Record<"started_after" | "started_before" | "canceled_at_after" | "canceled_at_before", Date>>;
  metadata: Map<string, string[]>;
}

/** What a list of subscriptions is sorted by: the name asked for → its column. */
export const SUBSCRIPTION_SORTABLE = { created_at: "created_at", started_at: "started_at", current_period_end: "current_period_end", status: "status", amount: "amount" } as const;

/** One page of sellers' subscriptions. */
export function pageOfSubscriptions(db: Knex, { organizationIds, filters, metadata }: SubscriptionFilter, page: { page: number; limit: number; sort: Sort<keyof typeof SUBSCRIPTION_SORTABLE> }) {
  const found = subscriptions(db).whereIn("organization_id", organizationIds);
  whereAnyOf(found, filters, ["organization_id", "product_id", "customer_id", "discount_id"]);
  if (filters.active === true) void found.whereIn("status", LIVE);
  if (filters.active === false) void found.whereNotIn("status", LIVE);
  if (filters.cancel_at_period_end !== undefined) void found.where("cancel_at_period_end", filters.cancel_at_period_end);
  whereAnyOf(found, filters, ["status", "customer_cancellation_reason"]);
  if (filters.external_customer_id) void found.whereIn("customer_id", customerIdsWithExternalIds(db, organizationIds, filters.external_customer_id));
  if (filters.started_after) void found.where("started_at", ">", filters.started_after);
  if (filters.started_before) void found.where("started_at", "<", filters.started_before);
  if (filters.canceled_at_after) void found.where("canceled_at", ">", filters.canceled_at_after);
  if (filters.canceled_at_before) void found.where("canceled_at", "<", filters.canceled_at_before);
  whereMetadata(found, "metadata", metadata);
  return pageOf<SubscriptionRow, keyof typeof SUBSCRIPTION_SORTABLE>(found, { ...page, columns: SUBSCRIPTION_SORTABLE, table: "subscriptions" });
}

/** One page of the customers' subscriptions, the running ones or the others when asked (what a customer sees of their own). */
/** What a customer narrows their subscriptions by in the portal. */
export interface CustomersSubscriptionFilter {
  active?: boolean;
  product_id?: string[];
  /** Text in the product's or the seller's name. */
  query?: string;
}

/** One page of the customers' subscriptions. */
export function pageOfCustomersSubscriptions(db: Knex, customerIds: string[], filter: CustomersSubscriptionFilter, page: { page: number; limit: number; sort: Sort<"started_at" | "created_at"> }) {
  const found = subscriptions(db).whereIn("customer_id", customerIds);
  if (filter.active === true) void found.whereIn("status", LIVE);
  if (filter.active === false) void found.whereNotIn("status", LIVE);
  if (filter.product_id) void found.whereIn("product_id", filter.product_id);
  if (filter.query) whereProductOrSellerNamed(db, found, "subscriptions", filter.query);
  return pageOf<SubscriptionRow, "started_at" | "created_at">(found, { ...page, columns: { started_at: "started_at", created_at: "created_at" }, table: "subscriptions" });
}

/** One of the customer's subscriptions; locked when the customer is about to change it. */
export function findCustomersSubscription(db: Knex, id: string, customerId: string, lock = false) {
  const found = subscriptions(db).where({ id, customer_id: customerId });
  return (lock ? found.forUpdate() : found).first();
}

/** The ids of the subscriptions the checkouts given started: a query, to use inside another. */
/** The customer's running seat-based subscriptions, oldest first: those whose seats a member may take. */
export const seatedSubscriptionsOf = (db: Knex, customerId: string) =>
  subscriptions(db).where({ customer_id: customerId }).whereNotNull("seats").whereIn("status", ["trialing", "active", "past_due"]).orderBy("created_at").orderBy("id");

export const subscriptionIdsOfCheckouts = (db: Knex, checkoutIds: string[]) => db("subscriptions").select("id").whereIn("checkout_id", checkoutIds);

/** A subscription as its export shows it: with its customer, its product's name and its discount. */
export type ExportedSubscriptionRow = SubscriptionRow & {
  email: string;
  customer_name: string | null;
  billing_name: string | null;
  billing_address: { country: string } | null;
  product_name: string;
  discount: DiscountRow | null;
};

/** Which subscriptions an export holds: of the sellers the caller may read, by the filters Polar's export takes. */
export interface SubscriptionExportFilter {
  organizationIds: string[];
  filters: Partial<Record<"organization_id" | "product_id" | "status", string[]>> & { cancel_at_period_end?: boolean; started_after?: Date; started_before?: Date };
}

/** Up to `limit` subscriptions after `after`, oldest first (by creation, then id): one batch of an export. */
export async function subscriptionsToExport(db: Knex, { organizationIds, filters }: SubscriptionExportFilter, after: BatchPosition | null, limit: number): Promise<ExportedSubscriptionRow[]> {
  // crosses into customers, products and discounts: the export names the customer, the product and the discount, read in the statement that reads the subscriptions.
  const found = db("subscriptions as s")
    .join("customers as c", "c.id", "s.customer_id")
    .join("products as p", "p.id", "s.product_id")
    .leftJoin("discounts as d", "d.id", "s.discount_id")
    .whereIn("s.organization_id", organizationIds);
  if (filters.organization_id) void found.whereIn("s.organization_id", filters.organization_id);
  if (filters.product_id) void found.whereIn("s.product_id", filters.product_id);
  if (filters.status) void found.whereIn("s.status", filters.status);
  if (filters.cancel_at_period_end !== undefined) void found.where("s.cancel_at_period_end", filters.cancel_at_period_end);
  if (filters.started_after) void found.where("s.started_at", ">", filters.started_after);
  if (filters.started_before) void found.where("s.started_at", "<", filters.started_before);
  if (after) void found.whereRaw("(s.created_at, s.id) > (?, ?)", [after.created_at, after.id]);
  const rows = await found
    .orderBy([{ column: "s.created_at" }, { column: "s.id" }])
    .limit(limit)
    .select<(Omit<ExportedSubscriptionRow, "discount"> & { discount: unknown })[]>("s.*", "c.email", "c.name as customer_name", "c.billing_name", "c.billing_address", "p.name as product_name", db.raw("case when d.id is null then null else to_jsonb(d) end as discount"));
  return rows.map((row) => ({ ...row, discount: row.discount === null ? null : (rowsFromJson<DiscountRow>([row.discount], ["created_at", "modified_at", "starts_at", "ends_at", "deleted_at"])[0] ?? null) }));
}
