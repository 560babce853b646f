import { notFound, notPermitted, PG_INTEGER_MAX, randomId, type Knex } from "@tollgate/kit";
import { sellerNow } from "../test-clock/clock.js";
import { licenseKeys, updateLicenseKey, type ActivationRow, type LicenseKeyRow } from "./license-keys.sql.js";

/** Whether `given` holds every condition an activation was made with (same keys, same values). */
const meets = (required: Record<string, unknown>, given: Record<string, unknown> | undefined) => Object.entries(required).every(([name, value]) => JSON.stringify(given?.[name]) === JSON.stringify(value));

/** The seller's key, locked for a change; unknown keys are not found, whatever the reason. */
export async function lockedKey(trx: Knex.Transaction, organizationId: string, key: string): Promise<LicenseKeyRow> {
  const found = await licenseKeys(trx).where({ organization_id: organizationId, key }).forUpdate().first();
  if (!found) throw notFound("License key");
  return found;
}

/**
 * Validates a key as Polar does: it must be granted, unexpired, belong to the benefit and customer
 * named, and, with an activation, be activated there under the same conditions. Usage is counted
 * up to its limit. Every validation is counted.
 */
export async function validateKey(
  trx: Knex.Transaction,
  request: { organization_id: string; key: string; activation_id?: string | null; benefit_id?: string | null; customer_id?: string | null; increment_usage?: number | null; conditions?: Record<string, unknown> },
): Promise<{ key: LicenseKeyRow; activation: ActivationRow | null }> {
  const key = await lockedKey(trx, request.organization_id, request.key);
  if ((request.benefit_id && key.benefit_id !== request.benefit_id) || (request.customer_id && key.customer_id !== request.customer_id)) throw notFound("License key");
  if (key.status !== "granted") throw notPermitted("License key is no longer active.");
  if (key.expires_at && key.expires_at <= (await sellerNow(trx, key.organization_id))) throw notPermitted("License key has expired.");
  let activation: ActivationRow | null = null;
  if (request.activation_id) {
    activation = (await trx<ActivationRow>("license_key_activations").where({ id: request.activation_id, license_key_id: key.id }).first()) ?? null;
    if (!activation) throw notFound("License key activation");
    if (!meets(activation.conditions, request.conditions)) throw notFound("License key activation");
  }
  const usage = key.usage + (request.increment_usage ?? 0);
  // A key without a limit still counts no further than its column holds.
  if (usage > (key.limit_usage ?? PG_INTEGER_MAX)) throw notPermitted("License key usage limit exceeded.");
  const validated = await updateLicenseKey(trx, key.id, { usage, validations: key.validations + 1, last_validated_at: new Date() });
  return { key: validated, activation };
}

/** Activates a key on one more device, within its activation limit. */
export async function activateKey(trx: Knex.Transaction, request: { organization_id: string; key: string; label: string; conditions?: Record<string, unknown>; meta?: Record<string, unknown> }): Promise<{ key: LicenseKeyRow; activation: ActivationRow }> {
  const key = await lockedKey(trx, request.organization_id, request.key);
  if (key.status !== "granted") throw notPermitted("License key is no longer active.");
  if (key.limit_activations === null) throw notPermitted("This license key does not support activations.");
  const [{ count } = { count: 0 }] = await trx("license_key_activations").where({ license_key_id: key.id }).count<{ count: number }[]>({ count: "*" });
  if (Number(count) >= key.limit_activations) throw notPermitted(`License key only supports ${key.limit_activations} activations.`);
  const [activation] = await trx<ActivationRow>("license_key_activations")
    .insert({ id: randomId(32), license_key_id: key.id, label: request.label, conditions: request.conditions ?? {}, meta: request.meta ?? {} })
    .returning("*");
  if (!activation) throw new Error("insert into license_key_activations returned no row");
  return { key, activation };
}

/** Frees a device's activation. */
export async function deactivateKey(trx: Knex.Transaction, request: { organization_id: string; key: string; activation_id: string }): Promise<void> {
  const key = await lockedKey(trx, request.organization_id, request.key);
  const removed = await trx("license_key_activations").where({ id: request.activation_id, license_key_id: key.id }).delete();
  if (removed === 0) throw notFound("License key activation");
}
