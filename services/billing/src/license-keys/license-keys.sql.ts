import { randomUUID } from "node:crypto";
import { pageOf, randomId, type Knex, type Sort } from "@tollgate/kit";
import { customersWithIds, type CustomerRow } from "../customers/customers.sql.js";
import { membersWithIds, type MemberRow } from "../members/members.sql.js";
import { addInterval } from "../calendar/intervals.js";

export type LicenseKeyStatus = "granted" | "revoked" | "disabled";

export interface LicenseKeyRow {
  id: string;
  organization_id: string;
  customer_id: string;
  /** The seat member holding the key; none for a key the customer holds as a whole. */
  member_id: string | null;
  benefit_id: string;
  key: string;
  status: LicenseKeyStatus;
  limit_activations: number | null;
  usage: number;
  limit_usage: number | null;
  validations: number;
  last_validated_at: Date | null;
  expires_at: Date | null;
  created_at: Date;
  modified_at: Date | null;
}

export interface ActivationRow {
  id: string;
  license_key_id: string;
  label: string;
  conditions: Record<string, unknown>;
  meta: Record<string, unknown>;
  created_at: Date;
  modified_at: Date | null;
}

/** What a license key benefit is configured with (see the benefit's properties). */
export interface LicenseKeySettings {
  prefix?: string | null;
  expires?: { ttl: number; timeframe: "year" | "month" | "day" } | null;
  activations?: { limit: number; enable_customer_admin: boolean } | null;
  limit_usage?: number | null;
}

export const licenseKeys = (db: Knex) => db<LicenseKeyRow>("license_keys");

export const activationsOf = (db: Knex, licenseKeyIds: string[]) => db<ActivationRow>("license_key_activations").whereIn("license_key_id", licenseKeyIds).orderBy("created_at");

export const findLicenseKey = (db: Knex, id: string) => licenseKeys(db).where({ id }).first();

/** A license key with the customer it was granted to and the seat member holding it (if one does), as it is shown. */
export interface LicenseKeyWithCustomer extends LicenseKeyRow {
  customer: CustomerRow;
  member: MemberRow | null;
}

/** License keys with their customers and members (deleted ones too), read for all at once. */
export async function licenseKeysWithCustomers(db: Knex, rows: LicenseKeyRow[]): Promise<LicenseKeyWithCustomer[]> {
  const memberIds = [...new Set(rows.flatMap((row) => (row.member_id ? [row.member_id] : [])))];
  const [owners, members] = await Promise.all([customersWithIds(db, [...new Set(rows.map((row) => row.customer_id))]), memberIds.length > 0 ? membersWithIds(db, memberIds) : []]);
  return rows.map((key) => {
    const customer = owners.find((candidate) => candidate.id === key.customer_id);
    if (!customer) throw new Error(`license key ${key.id} has lost its customer`);
    return { ...key, customer, member: members.find((candidate) => candidate.id === key.member_id) ?? null };
  });
}

export async function licenseKeyWithCustomer(db: Knex, key: LicenseKeyRow): Promise<LicenseKeyWithCustomer> {
  const [shown] = await licenseKeysWithCustomers(db, [key]);
  if (!shown) throw new Error(`license key ${key.id} could not be read with its customer`);
  return shown;
}

/** What a key was granted for, as validations show it: the subscription, or else the one-time order. */
export interface PurchaseOfKey {
  subscription: { id: string; status: string; current_period_start: string; current_period_end: string; cancel_at_period_end: boolean; ends_at: string | null } | null;
  order: { id: string; created_at: string; status: string; paid: boolean } | null;
}

/** The purchase whose grant made the key (none for a key whose grant is gone). */
export async function purchaseOfKey(db: Knex, key: Pick<LicenseKeyRow, "id" | "customer_id" | "benefit_id">): Promise<PurchaseOfKey> {
  // crosses into benefits, subscriptions and orders: the grant names the key, and the purchase it came from.
  const result = await db.raw<{ rows: PurchaseOfKey[] }>(
    `select case when subscription.id is null then null else json_build_object('id', subscription.id, 'status', subscription.status, 'current_period_start', subscription.current_period_start,
              'current_period_end', subscription.current_period_end, 'cancel_at_period_end', subscription.cancel_at_period_end, 'ends_at', subscription.ends_at) end as subscription,
            case when placed.id is null then null else json_build_object('id', placed.id, 'created_at', placed.created_at, 'status', placed.status, 'paid', placed.status not in ('pending', 'void')) end as "order"
     from benefit_grants grant_row
     left join subscriptions subscription on subscription.id = grant_row.subscription_id
     left join orders placed on placed.id = grant_row.order_id
     where grant_row.customer_id = ? and grant_row.benefit_id = ? and grant_row.properties->>'license_key_id' = ?
     limit 1`,
    [key.customer_id, key.benefit_id, key.id],
  );
  return result.rows[0] ?? { subscription: null, order: null };
}

/** A license key with its customer and every device it is activated on. */
export interface LicenseKeyWithActivations extends LicenseKeyWithCustomer {
  activations: ActivationRow[];
}

export async function licenseKeyWithActivations(db: Knex, key: LicenseKeyRow): Promise<LicenseKeyWithActivations> {
  const [withCustomer, activations] = await Promise.all([licenseKeyWithCustomer(db, key), activationsOf(db, [key.id])]);
  return { ...withCustomer, activations };
}

/** The seller's key by its value, locked until the transaction ends: checks of one key wait for each other. */
export const lockLicenseKey = (db: Knex, organizationId: string, key: string) => licenseKeys(db).where({ organization_id: organizationId, key }).forUpdate().first();

export const findActivation = (db: Knex, licenseKeyId: string, id: string) => db<ActivationRow>("license_key_activations").where({ id, license_key_id: licenseKeyId }).first();

export async function countActivations(db: Knex, licenseKeyId: string): Promise<number> {
  const [{ count } = { count: 0 }] = await db("license_key_activations").where({ license_key_id: licenseKeyId }).count<{ count: number }[]>({ count: "*" });
  return Number(count);
}

export async function insertActivation(db: Knex, activation: Pick<ActivationRow, "license_key_id" | "label" | "conditions" | "meta">): Promise<ActivationRow> {
  const [row] = await db<ActivationRow>("license_key_activations")
    .insert({ id: randomId(32), ...activation })
    .returning("*");
  if (!row) throw new Error("insert into license_key_activations returned no row");
  return row;
}

/** How many activations were removed: none when the key has no such activation. */
export const deleteActivation = (db: Knex, licenseKeyId: string, id: string) => db("license_key_activations").where({ id, license_key_id: licenseKeyId }).delete();

/** The license keys of the organizations given (of those among `organization_id`, of the benefits given). */
export function pageOfLicenseKeys(db: Knex, filter: { organizationIds: string[]; organization_id?: string[]; benefit_id?: string[]; status?: LicenseKeyStatus[] }, page: { page: number; limit: number; sort: Sort<"created_at"> }) {
  const found = licenseKeys(db).whereIn("organization_id", filter.organizationIds);
  if (filter.organization_id) void found.whereIn("organization_id", filter.organization_id);
  if (filter.benefit_id) void found.whereIn("benefit_id", filter.benefit_id);
  if (filter.status) void found.whereIn("status", filter.status);
  return pageOf<LicenseKeyRow, "created_at">(found, { ...page, columns: { created_at: "created_at" }, table: "license_keys" });
}

/** A new key for a customer, Polar's way: the benefit's prefix and an upper-case UUID, expiring after the benefit's lifetime. Not yet written. */
export function newLicenseKey(grant: { organization_id: string; customer_id: string; member_id: string | null; benefit_id: string }, settings: LicenseKeySettings, now: Date): LicenseKeyRow {
  return {
    id: randomId(32),
    ...grant,
    key: newKeyString(settings),
    status: "granted",
    limit_activations: settings.activations?.limit ?? null,
    usage: 0,
    limit_usage: settings.limit_usage ?? null,
    validations: 0,
    last_validated_at: null,
    expires_at: settings.expires ? addInterval(now, settings.expires.timeframe, settings.expires.ttl) : null,
    created_at: new Date(),
    modified_at: null,
  };
}

/** A key's string: the benefit's prefix, if it has one, and an upper-case UUID. */
export function newKeyString(settings: LicenseKeySettings): string {
  const uuid = randomUUID().toUpperCase();
  return settings.prefix ? `${settings.prefix.toUpperCase()}-${uuid}` : uuid;
}

/** The key by id, locked for a change. */
export const lockLicenseKeyById = (db: Knex, id: string) => licenseKeys(db).where({ id }).forUpdate().first();

/** A new string for the key: the old one is gone, and with it every validation by it. */
export async function replaceKeyString(db: Knex, id: string, key: string): Promise<LicenseKeyRow> {
  const [row] = await licenseKeys(db).where({ id }).update({ key, modified_at: new Date() }).returning("*");
  if (!row) throw new Error(`license key ${id} is gone`);
  return row;
}

export const insertLicenseKey = (db: Knex, key: LicenseKeyRow): Knex.QueryBuilder => licenseKeys(db).insert(key);

/** A revoked key stops validating; a key already gone is left so. */
export const revokeLicenseKey = (db: Knex, id: string) => licenseKeys(db).where({ id }).update({ status: "revoked", modified_at: new Date() });

/** A key its grant revoked, granted again; one the seller disabled stays so. */
export const restoreLicenseKey = (db: Knex, id: string): Knex.QueryBuilder => licenseKeys(db).where({ id, status: "revoked" }).update({ status: "granted", modified_at: new Date() });

export async function updateLicenseKey(db: Knex, id: string, changes: Partial<Pick<LicenseKeyRow, "status" | "usage" | "limit_activations" | "limit_usage" | "expires_at" | "validations" | "last_validated_at">>): Promise<LicenseKeyRow> {
  const [row] = await db<LicenseKeyRow>("license_keys")
    .where({ id })
    .update({ ...changes, modified_at: new Date() })
    .returning("*");
  if (!row) throw new Error(`license key ${id} is gone`);
  return row;
}

/** One page of a customer's license keys (of one benefit, when named), newest first. */
export function pageOfCustomersLicenseKeys(db: Knex, customerId: string, benefitId: string | undefined, page: { page: number; limit: number }) {
  const found = licenseKeys(db).where({ customer_id: customerId });
  if (benefitId) void found.where({ benefit_id: benefitId });
  return pageOf<LicenseKeyRow, "created_at">(found, { ...page, sort: [{ property: "created_at", descending: true }], columns: { created_at: "created_at" }, table: "license_keys" });
}

/** One of the customer's license keys. */
export const findCustomersLicenseKey = (db: Knex, id: string, customerId: string) => licenseKeys(db).where({ id, customer_id: customerId }).first();
