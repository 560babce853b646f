import { pageOf, prepared, WorkFailures, type Knex, type Sort } from "@tollgate/kit";
import type { Address } from "../db/address.js";
import type { BatchPosition } from "../db/batches.js";
import { rowsFromJson } from "../db/json-rows.js";
import { whereMetadata, type Metadata } from "../db/metadata.js";


/** Polar's customer types: an individual buys for themselves; a team has members (and seats for them). */
export const CUSTOMER_TYPES = ["individual", "team"] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];

export interface CustomerRow {
  id: string;
  organization_id: string;
  type: CustomerType;
  email: string;
  email_verified: boolean;
  name: string | null;
  /** The name invoices carry when it is not the customer's own (a company's, say); the customer sets it in the portal. */
  billing_name: string | null;
  external_id: string | null;
  billing_address: Address | null;
  tax_id: string | null;
  /** The saved card renewals are charged to, when the customer chose one. */
  default_payment_method_id: string | null;
  locale: string | null;
  metadata: Metadata;
  /** When the first event the seller sent about the customer happened (kept up by the usage measurer). */
  first_user_event_at: Date | null;
  created_at: Date;
  modified_at: Date | null;
  deleted_at: Date | null;
}

export type CustomerChanges = Partial<Pick<CustomerRow, "type" | "email" | "email_verified" | "name" | "billing_name" | "external_id" | "billing_address" | "tax_id" | "locale" | "metadata">>;

export const customers = (db: Knex) => db<CustomerRow>("customers").whereNull("deleted_at");

export const findCustomer = (db: Knex, id: string) => customers(db).where({ id }).first();

/** The customer, locked for the rest of the transaction: changes to their cards go one at a time. */
export const lockCustomer = (db: Knex, id: string) => customers(db).where({ id }).forUpdate().first();

/** The seller's customer with this e-mail (kept in lower case; one per seller). */
export const findCustomerByEmail = (db: Knex, organizationId: string, email: string) => customers(db).where({ organization_id: organizationId, email: email.toLowerCase() }).first();

export const findCustomerByExternalId = (db: Knex, organizationIds: string[], externalId: string) =>
  customers(db).whereIn("organization_id", organizationIds).where({ external_id: externalId }).first();

/**
 * When the first event the seller sent about `externalId` happened, for the customer taking that
 * external id now: events may name a customer by it before the customer exists, and the usage
 * measurer, finding nobody then, kept no first event for them. Events not yet tied to a customer are
 * keyed `external:<id>` (usage_events_customer_key).
 */
// crosses into usage-events: the first of the events sent under an external id, read once when a customer takes it
const FIRST_EVENT_UNDER = (organization: string) =>
  `(select min(event.timestamp) from usage_events event
    where event.organization_id = ${organization} and coalesce(event.customer_id, 'external:' || event.external_customer_id) = 'external:' || ? and event.source = 'user')`;

/** A new customer's row as written: with the first event already sent under its external id. */
const withFirstEvent = <Draft extends Pick<CustomerRow, "organization_id"> & CustomerChanges>(db: Knex, draft: Draft) =>
  draft.external_id ? { ...draft, first_user_event_at: db.raw(FIRST_EVENT_UNDER("?"), [draft.organization_id, draft.external_id]) } : draft;

export async function insertCustomer(db: Knex, customer: Pick<CustomerRow, "id" | "organization_id" | "email"> & CustomerChanges): Promise<CustomerRow> {
  const [row] = await db<CustomerRow>("customers").insert(withFirstEvent(db, customer)).returning("*");
  if (!row) throw new Error("insert into customers returned no row");
  return row;
}

export async function updateCustomer(db: Knex, id: string, changes: CustomerChanges & Partial<Pick<CustomerRow, "deleted_at">>): Promise<CustomerRow | undefined> {
  // An external id given now may be one events were sent under already.
  const firstEvent = changes.external_id ? { first_user_event_at: db.raw(`least(first_user_event_at, ${FIRST_EVENT_UNDER("customers.organization_id")})`, [changes.external_id]) } : {};
  const [row] = await db<CustomerRow>("customers")
    .where({ id })
    .update({ ...changes, ...firstEvent, modified_at: new Date() })
    .returning("*");
  return row;
}

/**
 * Records that the customers' state changed now (each customer once): the state worker announces it
 * once the burst has settled. A change to await, or to write with a unit's others.
 */
export function scheduleStateChanges(db: Knex, customerIds: string[]): Knex.QueryBuilder {
  const changedAt = new Date();
  return db("customer_state_changes")
    .insert(customerIds.map((customerId) => ({ customer_id: customerId, changed_at: changedAt })))
    .onConflict("customer_id")
    .merge({ changed_at: changedAt });
}

/** A customer row that came back as JSON (from a prepared statement: see `prepared`). */
const customerFromJson = (json: unknown) => rowsFromJson<CustomerRow>([json], ["created_at", "modified_at", "deleted_at", "first_user_event_at"])[0] as CustomerRow;

/**
 * The seller's customer with the draft's e-mail, or a new one made from the draft when there is
 * none, in one statement; `created` says which. Null when another transaction made that customer
 * meanwhile and has not committed yet as this statement began: the caller asks again.
 */
export async function findOrCreateCustomer(db: Knex, draft: Pick<CustomerRow, "id" | "organization_id" | "email"> & CustomerChanges): Promise<{ customer: CustomerRow; created: boolean } | null> {
  const made = db("customers").insert(withFirstEvent(db, draft)).onConflict().ignore().toSQL();
  const { rows } = await prepared(
    db.raw<{ rows: { customer: unknown; created: boolean }[] }>(
      `with made as (${made.sql} returning *)
       select to_json(made) as customer, true as created from made
       union all
       select to_json(found) as customer, false as created from customers found
         where found.organization_id = ? and found.email = ? and found.deleted_at is null and not exists (select 1 from made)`,
      [...made.bindings, draft.organization_id, draft.email] as Knex.RawBinding[],
    ),
  );
  const [row] = rows;
  return row ? { customer: customerFromJson(row.customer), created: row.created } : null;
}

/** Counts one more order of the customer (their invoices are numbered by it); the customer as they now are. */
export async function countOrder(db: Knex, customerId: string): Promise<CustomerRow & { orders_count: number }> {
  const { rows } = await prepared(db.raw<{ rows: { customer: unknown }[] }>("update customers set orders_count = orders_count + 1 where id = ? returning to_json(customers) as customer", [customerId]));
  const [row] = rows;
  if (!row) throw new Error(`customer ${customerId} is gone`);
  return customerFromJson(row.customer) as CustomerRow & { orders_count: number };
}

/** The customers with the ids given, deleted ones too: what they bought still shows who bought it. */
export const customersWithIds = (db: Knex, ids: string[]) => db<CustomerRow>("customers").whereIn("id", ids);

/** The ids of sellers' customers known by these external ids, as a subquery for other lists to filter by. */
export const customerIdsWithExternalIds = (db: Knex, organizationIds: string[], externalIds: string[]) =>
  customers(db).whereIn("organization_id", organizationIds).whereIn("external_id", externalIds).select("id");

export const CUSTOMER_SORTABLE = { created_at: "created_at", email: "email", name: "name" } as const;

/** What a seller's list of customers is narrowed to. */
export interface CustomerFilter {
  organizationIds: string[];
  organizationId: string[] | undefined;
  email: string | undefined;
  /** Part of the e-mail, name or external id. */
  text: string | undefined;
  metadata: Map<string, string[]>;
  /** Customers with (or without) a subscription running: trialing, active or past due, as Polar counts them. */
  active: boolean | undefined;
}

/** Customers with the text in their e-mail, name or external id. */
const matchText = (query: Knex.QueryBuilder, text: string) => {
  const pattern = `%${text}%`;
  return query.whereILike("email", pattern).orWhereILike("name", pattern).orWhereILike("external_id", pattern);
};

/** The ids of the sellers' customers with the text in their e-mail, name, external id or id, as a subquery. */
export const customerIdsMatching = (db: Knex, organizationIds: string[], text: string): Knex.QueryBuilder =>
  customers(db)
    .whereIn("organization_id", organizationIds)
    .where((match) => void matchText(match, text).orWhereILike("id", `%${text}%`))
    .select("id");

/** One page of sellers' customers. */
export function pageOfCustomers(db: Knex, filter: CustomerFilter, page: { page: number; limit: number; sort: Sort<keyof typeof CUSTOMER_SORTABLE> }) {
  const found = customers(db).whereIn("organization_id", filter.organizationIds);
  if (filter.organizationId) void found.whereIn("organization_id", filter.organizationId);
  if (filter.email) void found.where({ email: filter.email.toLowerCase() });
  if (filter.text) void found.where((match) => void matchText(match, filter.text ?? ""));
  whereMetadata(found, "metadata", filter.metadata);
  if (filter.active !== undefined) {
    // crosses into subscriptions: whether the customer has one running.
    const running = (query: Knex.QueryBuilder) => void query.select(db.raw("1")).from("subscriptions").whereRaw("subscriptions.customer_id = customers.id").whereIn("subscriptions.status", ["trialing", "active", "past_due"]);
    void (filter.active ? found.whereExists(running) : found.whereNotExists(running));
  }
  return pageOf<CustomerRow, keyof typeof CUSTOMER_SORTABLE>(found, { ...page, columns: CUSTOMER_SORTABLE, table: "customers" });
}

/**
 * A customer with what they have now, as JSON columns: granted benefits (with their benefit's
 * type), live subscriptions, the metered prices of those subscriptions' products, and their meters.
 */
export type CustomerWithHoldings = CustomerRow & { grants: unknown; subscriptions: unknown; metered_prices: unknown; meters: unknown };

/** What the customers are given, read for all of them in one statement; `customerIds` may be a query of them. */
const holdingsOf = (db: Knex, customerIds: Knex.QueryBuilder | string[]) =>
  db("customers as customer")
    .whereIn("customer.id", customerIds)
    .select<CustomerWithHoldings[]>(
      "customer.*",
      // crosses into benefits, subscriptions, products and customer-meters: a customer's state is read for a whole batch in one statement.
      db.raw(`coalesce((select json_agg(granted order by granted.granted_at) from (
          select given.*, benefit.type as benefit_type, benefit.metadata as benefit_metadata
          from benefit_grants given join benefits benefit on benefit.id = given.benefit_id
          where given.customer_id = customer.id and given.granted_at is not null and given.revoked_at is null) granted), '[]') as grants`),
      db.raw(`coalesce((select json_agg(subscription order by subscription.started_at) from subscriptions subscription
          where subscription.customer_id = customer.id and subscription.status in ('active', 'trialing')), '[]') as subscriptions`),
      db.raw(`coalesce((select json_agg(price order by price.position) from product_prices price
          where price.amount_type = 'metered_unit' and not price.is_archived and price.product_id in (
            select subscription.product_id from subscriptions subscription where subscription.customer_id = customer.id and subscription.status in ('active', 'trialing'))), '[]') as metered_prices`),
      db.raw(`coalesce((select json_agg(meter order by meter.created_at) from customer_meters meter where meter.customer_id = customer.id), '[]') as meters`),
    );

/** A customer with what they have now. */
export async function customerWithHoldings(db: Knex, customerId: string): Promise<CustomerWithHoldings> {
  const [holdings] = await holdingsOf(db, [customerId]);
  if (!holdings) throw new Error(`customer ${customerId} is gone`);
  return holdings;
}

/** The state announcer's name for its items (customers) in `set_aside_work`. */
export const STATE_WORKER = "customer_state";

/** A customer whose state change is due, with their holdings (none when the customer is gone). */
export interface DueStateChange {
  customer_id: string;
  holdings: CustomerWithHoldings | null;
}

/**
 * The customers whose state change is due (none changed it in the last `settleMs`), their rows locked
 * (FOR UPDATE SKIP LOCKED, so two replicas never take one) and their holdings read, in one statement.
 * Set-aside ones and those of `passOver` are left; `only` narrows them to one customer.
 */
export async function dueStateChanges(db: Knex, { limit, passOver, only, settleMs }: { limit: number; passOver: string[]; only?: string; settleMs: number }): Promise<DueStateChange[]> {
  const notSetAside = WorkFailures.notSetAside(STATE_WORKER, "customer_state_changes.customer_id");
  const narrowed = db("customer_state_changes").where("changed_at", "<=", new Date(Date.now() - settleMs)).whereRaw(notSetAside.sql, notSetAside.bindings).whereNotIn("customer_id", passOver);
  if (only) void narrowed.where({ customer_id: only });
  const due = narrowed.orderBy("changed_at").limit(limit).forUpdate().skipLocked().select("customer_id").toSQL();
  const held = holdingsOf(db, db.select("customer_id").from("due")).toSQL();
  const { rows } = await db.raw<{ rows: { customer_id: string; holdings: unknown }[] }>(
    `with due as (${due.sql}) select due.customer_id, to_json(held) as holdings from due left join (${held.sql}) held on held.id = due.customer_id`,
    [...due.bindings, ...held.bindings] as Knex.RawBinding[],
  );
  return rows.map(({ customer_id, holdings }) => ({ customer_id, holdings: holdings === null ? null : (rowsFromJson<CustomerWithHoldings>([holdings], ["created_at", "modified_at", "deleted_at"])[0] as CustomerWithHoldings) }));
}

/** Clears the state changes of the customers given: a change to write with their announcements. */
export const clearStateChanges = (db: Knex, customerIds: string[]): Knex.QueryBuilder => db("customer_state_changes").whereIn("customer_id", customerIds).delete();

/** The card the customer's renewals are charged to from now on. */
/** Makes the card the customer's default when they have none. */
export const defaultPaymentMethodIfNone = (db: Knex, customerId: string, paymentMethodId: string) =>
  db("customers").where({ id: customerId }).whereNull("default_payment_method_id").update({ default_payment_method_id: paymentMethodId, modified_at: new Date() });

export const setDefaultPaymentMethod = (db: Knex, customerId: string, paymentMethodId: string | null) =>
  db("customers").where({ id: customerId }).update({ default_payment_method_id: paymentMethodId, modified_at: new Date() });

/** The ids of the customers (one per seller at most) with the e-mail given. */
export const customerIdsWithEmail = async (db: Knex, email: string): Promise<string[]> => (await customers(db).where({ email }).select("id")).map((customer) => customer.id);

/** The sellers' customers among those named by id or by external id: their ids and external ids only. */
export const customersNamed = (db: Knex, organizationIds: string[], ids: string[], externalIds: string[]): Promise<Pick<CustomerRow, "id" | "external_id">[]> =>
  customers(db)
    .whereIn("organization_id", organizationIds)
    .where((named) => void named.whereIn("id", ids).orWhereIn("external_id", externalIds))
    .select("id", "external_id");

/** Up to `limit` of the sellers' customers (not deleted) after `after`, oldest first: one batch of an export. */
export function customersToExport(db: Knex, organizationIds: string[], organizationId: string[] | undefined, after: BatchPosition | null, limit: number): Promise<CustomerRow[]> {
  const found = customers(db).whereIn("organization_id", organizationIds);
  if (organizationId) void found.whereIn("organization_id", organizationId);
  if (after) void found.whereRaw("(created_at, id) > (?, ?)", [after.created_at, after.id]);
  return found.orderBy([{ column: "created_at" }, { column: "id" }]).limit(limit);
}

/** The first moment an event named a customer, by their id or by the seller's external id for them. */
export interface FirstEventOf {
  customerId: string | null;
  externalId: string | null;
  at: Date;
}

/**
 * Moves each named customer's first_user_event_at back to the first of `firsts` about them; never
 * later, so events measured out of order leave the earliest. Only a customer's first events write.
 */
export async function lowerFirstUserEventAt(db: Knex, organizationId: string, firsts: FirstEventOf[]): Promise<void> {
  if (firsts.length === 0) return;
  await db.raw(
    `update customers customer set first_user_event_at = first.at
     from (select named.id, min(seen.at) as at
           from jsonb_to_recordset(?::jsonb) as seen(customer_id text, external_id text, at timestamptz)
           join customers named on named.organization_id = ? and named.deleted_at is null and (named.id = seen.customer_id or named.external_id = seen.external_id)
           group by named.id) first
     where customer.id = first.id and (customer.first_user_event_at is null or customer.first_user_event_at > first.at)`,
    [JSON.stringify(firsts.map((first) => ({ customer_id: first.customerId, external_id: first.externalId, at: first.at }))), organizationId],
  );
}
