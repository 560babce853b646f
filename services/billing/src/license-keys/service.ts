import type { z } from "zod";
import { HttpError, notFound, notPermitted, PG_INTEGER_MAX, type Knex } from "@tollgate/kit";
import { showRotatedKey } from "../benefits/benefits.sql.js";
import { findBenefit } from "../benefits/service.js";
import { sellerNow } from "../test-clock/clock.js";
import {
  countActivations,
  deleteActivation,
  findActivation,
  insertActivation,
  licenseKeyWithCustomer,
  lockLicenseKey,
  purchaseOfKey,
  lockLicenseKeyById,
  newKeyString,
  replaceKeyString,
  updateLicenseKey,
  type ActivationRow,
  type LicenseKeyRow,
} from "./license-keys.sql.js";
import { activationJson, displayKey, grantedLicenseKeyJson, licenseKeyJson } from "./output.js";
import type { LicenseKeyUpdate } from "./schemas.js";

// The reads the routes make, as the store has them: a key by id, a page of them, with their customers or activations.
export { findActivation, findLicenseKey, licenseKeysWithCustomers, licenseKeyWithActivations, licenseKeyWithCustomer, pageOfLicenseKeys } from "./license-keys.sql.js";

/** Whether `given` holds every condition an activation was made with (same keys, same values). */
const meets = (required: Record<string, unknown>, given: Record<string, unknown> | undefined) => Object.entries(required).every(([name, value]) => JSON.stringify(given?.[name]) === JSON.stringify(value));

/** The seller's key, locked for a change; unknown keys are not found, whatever the reason. */
async function lockedKey(trx: Knex.Transaction, organizationId: string, key: string): Promise<LicenseKeyRow> {
  const found = await lockLicenseKey(trx, organizationId, key);
  if (!found) throw notFound("License key");
  return found;
}

/**
 * Validates a key as Polar does: it must be granted, unexpired, belong to the benefit and customer
 * named, and, with an activation, be activated there under the same conditions. Usage is counted
 * up to its limit. Every validation is counted.
 */
async function validateKey(
  trx: Knex.Transaction,
  request: { organization_id: string; key: string; activation_id?: string | null; benefit_id?: string | null; customer_id?: string | null; increment_usage?: number | null; conditions?: Record<string, unknown> },
): Promise<{ key: LicenseKeyRow; activation: ActivationRow | null }> {
  const key = await lockedKey(trx, request.organization_id, request.key);
  if ((request.benefit_id && key.benefit_id !== request.benefit_id) || (request.customer_id && key.customer_id !== request.customer_id)) throw notFound("License key");
  if (key.status !== "granted") throw notPermitted("License key is no longer active.");
  if (key.expires_at && key.expires_at <= (await sellerNow(trx, key.organization_id))) throw notPermitted("License key has expired.");
  let activation: ActivationRow | null = null;
  if (request.activation_id) {
    activation = (await findActivation(trx, key.id, request.activation_id)) ?? null;
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
async function activateKey(trx: Knex.Transaction, request: { organization_id: string; key: string; label: string; conditions?: Record<string, unknown>; meta?: Record<string, unknown> }): Promise<{ key: LicenseKeyRow; activation: ActivationRow }> {
  const key = await lockedKey(trx, request.organization_id, request.key);
  if (key.status !== "granted") throw notPermitted("License key is no longer active.");
  if (key.limit_activations === null) throw notPermitted("This license key does not support activations.");
  if ((await countActivations(trx, key.id)) >= key.limit_activations) throw notPermitted(`License key only supports ${key.limit_activations} activations.`);
  const activation = await insertActivation(trx, { license_key_id: key.id, label: request.label, conditions: request.conditions ?? {}, meta: request.meta ?? {} });
  return { key, activation };
}

/** Frees a device's activation. */
async function deactivateKey(trx: Knex.Transaction, request: { organization_id: string; key: string; activation_id: string }): Promise<void> {
  const key = await lockedKey(trx, request.organization_id, request.key);
  const removed = await deleteActivation(trx, key.id, request.activation_id);
  if (removed === 0) throw notFound("License key activation");
}

/** What a caller asks of a key: the seller's key (by value) and what to check or change. */
type KeyRequest<Step extends (trx: Knex.Transaction, request: never) => unknown> = Parameters<Step>[1];

/** Validates a key (see validateKey), answered as Polar's ValidatedLicenseKey. */
export const validateLicenseKey = (db: Knex, request: KeyRequest<typeof validateKey>) =>
  db.transaction(async (trx) => {
    const { key, activation } = await validateKey(trx, request);
    return { ...grantedLicenseKeyJson(await licenseKeyWithCustomer(trx, key), await purchaseOfKey(trx, key)), activation: activation ? activationJson(activation) : null };
  });

/** Activates a key (see activateKey), answered as Polar's LicenseKeyActivationRead. */
export const activateLicenseKey = (db: Knex, request: KeyRequest<typeof activateKey>) =>
  db.transaction(async (trx) => {
    const { key, activation } = await activateKey(trx, request);
    return { ...activationJson(activation), license_key: grantedLicenseKeyJson(await licenseKeyWithCustomer(trx, key), await purchaseOfKey(trx, key)) };
  });

export async function deactivateLicenseKey(db: Knex, request: KeyRequest<typeof deactivateKey>): Promise<void> {
  await db.transaction((trx) => deactivateKey(trx, request));
}

/**
 * A new string for a key (Polar's rotate), after a leak say: the old string stops validating at once,
 * while status, usage, limits, expiry and activations stay. A revoked key is not rotated (400
 * RotateNotPermitted): nothing could validate with the new string either.
 */
export const rotateLicenseKey = (db: Knex, key: LicenseKeyRow) =>
  db.transaction(async (trx) => {
    const locked = await lockLicenseKeyById(trx, key.id);
    if (!locked) throw notFound("License key");
    if (locked.status === "revoked") throw new HttpError(400, "RotateNotPermitted", `License key ${key.id} is revoked: only a granted or disabled key can be rotated.`);
    const benefit = await findBenefit(trx, locked.benefit_id);
    const rotated = await replaceKeyString(trx, locked.id, newKeyString(benefit?.properties ?? {}));
    await showRotatedKey(trx, rotated.id, displayKey(rotated.key));
    return licenseKeyJson(await licenseKeyWithCustomer(trx, rotated));
  });

/** The seller's changes to a key: those given, the rest as they were. */
export async function changeLicenseKey(db: Knex, key: LicenseKeyRow, body: z.output<typeof LicenseKeyUpdate>): Promise<LicenseKeyRow> {
  const changes: Parameters<typeof updateLicenseKey>[2] = {};
  if (body.status) changes.status = body.status;
  for (const field of ["usage", "limit_activations", "limit_usage", "expires_at"] as const) {
    if (body[field] !== undefined) Object.assign(changes, { [field]: body[field] });
  }
  return updateLicenseKey(db, key.id, changes);
}
