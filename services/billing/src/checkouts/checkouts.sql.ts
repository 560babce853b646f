import { claimStatement, LeaseKeeper, pageOf, prepared, whereAnyOf, whileHeld, WorkFailures, type Knex, type Lease, type Logger, type Sort, type UnitOfWork } from "@tollgate/kit";
import { rowsFromJson } from "../db/json-rows.js";
import { whereMetadata, type Metadata } from "../db/metadata.js";
import type { Answers } from "../custom-fields/answers.js";
import type { Address } from "../db/address.js";
import type { DiscountRow } from "../discounts/discounts.sql.js";
import type { SellerRow } from "../organizations/organizations.sql.js";
import { PRODUCT_PARTS, withParts, type ProductWithJsonParts, type ProductWithParts } from "../products/products.sql.js";
import { sellerNowSql } from "../test-clock/clock.js";
import { customerIdsWithExternalIds } from "../customers/customers.sql.js";

export type CheckoutStatus = "open" | "expired" | "confirmed" | "succeeded" | "failed";

export interface CheckoutRow {
  id: string;
  organization_id: string;
  client_secret: string;
  status: CheckoutStatus;
  /** The products offered, in the seller's order; `product_id` is the one chosen. */
  product_ids: string[];
  product_id: string;
  product_price_id: string;
  /** Before any discount: the price's amount, what the customer chose for a pay-what-you-want price, or what the seats cost. */
  amount: number;
  /** The seats sold of a seat-based price (null for any other), and the bounds the seller set on the buyer's choice. */
  seats: number | null;
  min_seats: number | null;
  max_seats: number | null;
  currency: string;
  discount_id: string | null;
  allow_discount_codes: boolean;
  require_billing_address: boolean;
  allow_trial: boolean;
  customer_id: string | null;
  external_customer_id: string | null;
  is_business_customer: boolean;
  customer_name: string | null;
  customer_email: string | null;
  customer_ip_address: string | null;
  customer_billing_name: string | null;
  customer_billing_address: Address | null;
  customer_tax_id: string | null;
  customer_metadata: Metadata;
  custom_field_data: Answers;
  metadata: Metadata;
  success_url: string | null;
  return_url: string | null;
  embed_origin: string | null;
  locale: string | null;
  payment_error: string | null;
  /** A payment waiting for the customer's bank (3-D Secure): the secret its page finishes it with. */
  payment_client_secret: string | null;
  expires_at: Date;
  created_at: Date;
  modified_at: Date | null;
}

export type CheckoutChanges = Partial<Omit<CheckoutRow, "id" | "organization_id" | "client_secret" | "created_at" | "modified_at">>;

export const checkouts = (db: Knex) => db<CheckoutRow>("checkouts");

export const findCheckout = (db: Knex, id: string) => checkouts(db).where({ id }).first();

/** A checkout row that came back as JSON (from a prepared statement: see `prepared`). */
export const checkoutFromJson = (json: unknown) => rowsFromJson<CheckoutRow>([json], ["expires_at", "created_at", "modified_at"])[0] as CheckoutRow;

/** The insert of a new checkout, made in full beforehand: a change to write with a unit's others. */
export const insertCheckout = (db: Knex, checkout: CheckoutRow): Knex.QueryBuilder => checkouts(db).insert(checkout);

/** A checkout's row after `changes`, and the change that writes them (added to the unit's writes); nothing is read back. */
export function changedCheckout(unit: UnitOfWork, checkout: CheckoutRow, changes: CheckoutChanges): CheckoutRow {
  const modified = { ...changes, modified_at: new Date() };
  unit.change(checkouts(unit.db).where({ id: checkout.id }).update(modified));
  return { ...checkout, ...modified };
}

/** The expiry sweep's name for its items (checkouts) in `set_aside_work`. */
export const EXPIRY_WORKER = "checkout_expiry";

/**
 * Open checkouts whose time is up in their seller's clock, locked for the caller to expire; SKIP
 * LOCKED lets replicas share the sweep. Set-aside ones and those of `passOver` are left; `only`
 * narrows them to one checkout.
 */
export function overdueCheckouts(db: Knex, { limit, passOver, only }: { limit: number; passOver: string[]; only?: string }): Promise<CheckoutRow[]> {
  const notSetAside = WorkFailures.notSetAside(EXPIRY_WORKER, "checkout.id");
  const overdue = db("checkouts as checkout")
    // crosses into organizations: each seller's clock decides which checkouts are overdue, in the one locking statement.
    .join("organizations as seller", "seller.id", "checkout.organization_id")
    .where("checkout.status", "open")
    .whereRaw(`checkout.expires_at <= ${sellerNowSql("seller")}`)
    .whereRaw(notSetAside.sql, notSetAside.bindings)
    .whereNotIn("checkout.id", passOver);
  if (only) void overdue.where("checkout.id", only);
  return overdue.orderBy("checkout.expires_at").limit(limit).select<CheckoutRow[]>("checkout.*").forUpdate("checkout").skipLocked();
}

/** The checkout, locked, if it is still open and overdue at `now`: one found so on reading is expired there and then. */
export const lockOverdueCheckout = (db: Knex, id: string, now: Date) => checkouts(db).where({ id, status: "open" }).where("expires_at", "<=", now).forUpdate().first();

/** The job that has the payment worker pay a confirmed checkout: a change to write with the confirmation. */
export const insertPaymentJob = (db: Knex, job: { checkout_id: string; idempotency_key: string; confirmation_token_id: string | null; run_at: Date }): Knex.QueryBuilder => db("checkout_payment_jobs").insert(job);

export const CHECKOUT_SORTABLE = { created_at: "created_at", expires_at: "expires_at", status: "status" } as const;

/** What a seller's list of checkouts is narrowed to: the sellers the caller may read, and the filters asked for. */
export interface CheckoutFilter {
  organizationIds: string[];
  filters: Partial<Record<"organization_id" | "product_id" | "customer_id" | "external_customer_id" | "status", string[]>>;
  /** Part of the buyer's e-mail or name. */
  text: string | undefined;
  metadata: Map<string, string[]>;
}

/** One page of sellers' checkouts. */
export function pageOfCheckouts(db: Knex, { organizationIds, filters, text, metadata }: CheckoutFilter, page: { page: number; limit: number; sort: Sort<keyof typeof CHECKOUT_SORTABLE> }) {
  const found = checkouts(db).whereIn("organization_id", organizationIds);
  whereAnyOf(found, filters, ["organization_id", "product_id", "customer_id", "status"]);
  if (filters.external_customer_id) void found.whereIn("customer_id", customerIdsWithExternalIds(db, organizationIds, filters.external_customer_id));
  if (text) void found.where((match) => void match.whereILike("customer_email", `%${text}%`).orWhereILike("customer_name", `%${text}%`));
  whereMetadata(found, "metadata", metadata);
  return pageOf<CheckoutRow, keyof typeof CHECKOUT_SORTABLE>(found, { ...page, columns: CHECKOUT_SORTABLE, table: "checkouts" });
}

/**
 * What checkouts refer to: their products with everything shown with them, those products'
 * sellers, and the discounts applied. A checkout's JSON, the checks on its confirmation and the
 * order it becomes are all made from this, read once, rather than each reading again.
 */
export interface CheckoutCatalog {
  products: Map<string, ProductWithParts>;
  sellers: Map<string, SellerRow>;
  discounts: Map<string, DiscountRow>;
}

/**
 * The catalog as three JSON columns of a select list, for the product and discount ids the SQL
 * expressions given yield (text arrays): to read a checkout and its catalog in one statement.
 */
// crosses into products, organizations and discounts: the sale path reads a checkout and all it refers to in one statement.
export const catalogColumns = (productIds: string, discountIds: string) => `
  (select coalesce(json_agg(product), '[]') from (select product.*, ${PRODUCT_PARTS} from products product where product.id = any(${productIds})) product) as catalog_products,
  (select coalesce(json_agg(seller), '[]') from organizations seller
    where seller.deleted_at is null and seller.id in (select organization_id from products where id = any(${productIds}))) as catalog_sellers,
  (select coalesce(json_agg(discount), '[]') from discounts discount where discount.deleted_at is null and discount.id = any(${discountIds})) as catalog_discounts`;

export type CatalogColumns = Record<"catalog_products" | "catalog_sellers" | "catalog_discounts", unknown[]>;

/** A row read with {@link catalogColumns}, split into its own columns and the catalog. */
export function withCatalog<Row>(row: Row & CatalogColumns): { row: Row; catalog: CheckoutCatalog } {
  const { catalog_products, catalog_sellers, catalog_discounts, ...own } = row;
  return { row: own as Row, catalog: catalogFrom({ catalog_products, catalog_sellers, catalog_discounts }) };
}

function catalogFrom(columns: CatalogColumns): CheckoutCatalog {
  return {
    products: new Map((columns.catalog_products as ProductWithJsonParts[]).map((row) => [row.id, withParts(row, true)])),
    sellers: new Map(rowsFromJson<SellerRow>(columns.catalog_sellers, ["details_submitted_at", "created_at", "modified_at", "deleted_at"]).map((seller) => [seller.id, seller])),
    discounts: new Map(rowsFromJson<DiscountRow>(columns.catalog_discounts, ["starts_at", "ends_at", "created_at", "modified_at", "deleted_at"]).map((discount) => [discount.id, discount])),
  };
}

/** Products (with their sellers) and discounts by id, in one statement (prepared: planning it took most of its time). */
export async function readCatalog(db: Knex, productIds: readonly string[], discountIds: readonly (string | null)[] = []): Promise<CheckoutCatalog> {
  const { rows } = await prepared(
    db.raw<{ rows: CatalogColumns[] }>(`select ${catalogColumns("?::text[]", "?::text[]")}`, [[...productIds], [...productIds], discountIds.filter((id): id is string => id !== null)]),
  );
  const [columns] = rows;
  if (!columns) throw new Error("the catalog query returned no row");
  return catalogFrom(columns);
}

/** What the checkouts given refer to. */
export const catalogOf = (db: Knex, checkouts: Pick<CheckoutRow, "product_ids" | "discount_id">[]) =>
  readCatalog(
    db,
    checkouts.flatMap((checkout) => checkout.product_ids),
    checkouts.map((checkout) => checkout.discount_id),
  );

/** A checkout by id or client secret with its catalog, in one statement; locked (FOR UPDATE) when read in a transaction that will change it. */
export async function checkoutWithCatalog(db: Knex, which: Pick<CheckoutRow, "id"> | Pick<CheckoutRow, "client_secret">, lock: boolean): Promise<{ checkout: CheckoutRow; catalog: CheckoutCatalog } | null> {
  const [column, value] = "id" in which ? ["id", which.id] : ["client_secret", which.client_secret];
  const { rows } = await prepared(
    db.raw<{ rows: ({ checkout: unknown } & CatalogColumns)[] }>(
      `select to_json(checkout) as checkout, ${catalogColumns("checkout.product_ids", "array[checkout.discount_id]")} from checkouts checkout where checkout.${column} = ?${lock ? " for update of checkout" : ""}`,
      [value],
    ),
  );
  const [found] = rows;
  if (!found) return null;
  const { row, catalog } = withCatalog(found);
  return { checkout: checkoutFromJson(row.checkout), catalog };
}

/** A checkout's payment, queued when it is confirmed and taken by one replica at a time to pay. */
export interface PaymentJob {
  checkout_id: string;
  idempotency_key: string;
  confirmation_token_id: string | null;
  /** The processor's payment, once it waits for the customer (3-D Secure): asked after rather than made again. */
  processor_payment_id: string | null;
  /** Since when it waits for the customer's bank. */
  awaiting_since: Date | null;
  attempts: number;
}

/** Payment jobs, each claimed by one replica while it pays. */
const paymentJobLease: Lease = { table: "checkout_payment_jobs", key: "checkout_id" };

/** Keeps the payment jobs a replica claimed held for as long as it is paying them. */
export const paymentJobKeeper = (db: Knex, leaseMs: number, logger: Logger) =>
  new LeaseKeeper<PaymentJob>({ db, lease: paymentJobLease, leaseMs, logger, claimOf: (job) => ({ key: job.checkout_id, mark: job.attempts }) });

/** The payment worker's name for its items (checkouts) in `set_aside_work`. */
export const PAYMENT_WORKER = "checkout_payment";

/** Claims due payment jobs that are not set aside for `leaseMs`, each read with its checkout and catalog, in one statement. */
export async function claimPaymentJobs(db: Knex, options: { limit: number; leaseMs: number }): Promise<(PaymentJob & { checkout: unknown } & CatalogColumns)[]> {
  const claim = claimStatement(paymentJobLease, { ...options, where: WorkFailures.notSetAside(PAYMENT_WORKER, "item.checkout_id") });
  const { rows } = await prepared(
    db.raw<{ rows: (PaymentJob & { checkout: unknown } & CatalogColumns)[] }>(
      `with claimed as (${claim.sql})
       select claimed.checkout_id, claimed.idempotency_key, claimed.confirmation_token_id, claimed.processor_payment_id, claimed.awaiting_since, claimed.attempts, to_json(checkout) as checkout, ${catalogColumns("checkout.product_ids", "array[checkout.discount_id]")}
       from claimed left join checkouts checkout on checkout.id = claimed.checkout_id`,
      claim.bindings,
    ),
  );
  return rows;
}

/**
 * Locks the checkout and takes its payment job, in one statement: the row as it is now, and whether
 * the job was still there to take (a replica that lost its lease finds it gone).
 */
export async function lockTakingJob(db: Knex, job: PaymentJob): Promise<{ checkout: CheckoutRow; jobTaken: boolean } | undefined> {
  const { rows } = await prepared(
    db.raw<{ rows: { checkout: unknown; job_taken: boolean }[] }>(
      `with taken as (delete from checkout_payment_jobs where checkout_id = ? and idempotency_key = ? returning 1)
       select to_json(checkout) as checkout, exists (select 1 from taken) as job_taken from checkouts checkout where checkout.id = ? for update of checkout`,
      [job.checkout_id, job.idempotency_key, job.checkout_id],
    ),
  );
  const [row] = rows;
  return row && { checkout: checkoutFromJson(row.checkout), jobTaken: row.job_taken };
}

export const dropPaymentJob = (db: Knex, checkoutId: string) => db("checkout_payment_jobs").where({ checkout_id: checkoutId }).delete();

/** Lets the job go while this claim still holds it, to ask at `runAt` after the payment that waits for its customer. */
export const awaitPaymentJob = (db: Knex, job: PaymentJob, processorPaymentId: string, runAt: Date) =>
  whileHeld(
    paymentJobLease,
    db("checkout_payment_jobs").update({ leased_until: null, run_at: runAt, processor_payment_id: processorPaymentId, awaiting_since: db.raw("coalesce(awaiting_since, now())") }),
    { key: job.checkout_id, mark: job.attempts },
  );

/** Lets the job go while this claim still holds it, to be claimed again at `runAt`. */
export const retryPaymentJob = (db: Knex, job: PaymentJob, runAt: Date) =>
  whileHeld(paymentJobLease, db("checkout_payment_jobs").update({ leased_until: null, run_at: runAt }), { key: job.checkout_id, mark: job.attempts });
