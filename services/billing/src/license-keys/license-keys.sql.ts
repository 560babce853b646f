import { randomUUID } from "node:crypto";
import { randomId, type Knex } from "@tollgate/kit";
import { addInterval } from "../api/dates.js";

export type LicenseKeyStatus = "granted" | "revoked" | "disabled";

export interface LicenseKeyRow {
  id: string;
  organization_id: string;
  customer_id: string;
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

/** The key as shown where it must not be read whole: its last six characters. */
export const displayKey = (key: string) => `****-${key.slice(-6)}`;

/** A new key for a customer, Polar's way: the benefit's prefix and an upper-case UUID, expiring after the benefit's lifetime. Not yet written. */
export function newLicenseKey(grant: { organization_id: string; customer_id: string; benefit_id: string }, settings: LicenseKeySettings, now: Date): LicenseKeyRow {
  const uuid = randomUUID().toUpperCase();
  return {
    id: randomId(32),
    ...grant,
    key: settings.prefix ? `${settings.prefix.toUpperCase()}-${uuid}` : uuid,
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

export const insertLicenseKey = (db: Knex, key: LicenseKeyRow): Knex.QueryBuilder => licenseKeys(db).insert(key);

export async function updateLicenseKey(db: Knex, id: string, changes: Partial<Pick<LicenseKeyRow, "status" | "usage" | "limit_activations" | "limit_usage" | "expires_at" | "validations" | "last_validated_at">>): Promise<LicenseKeyRow> {
  const [row] = await db<LicenseKeyRow>("license_keys")
    .where({ id })
    .update({ ...changes, modified_at: new Date() })
    .returning("*");
  if (!row) throw new Error(`license key ${id} is gone`);
  return row;
}
