import type { Knex } from "@tollgate/kit";
import { customerJson } from "../customers/output.js";
import { customersWithIds } from "../customers/customers.sql.js";
import { activationsOf, displayKey, type ActivationRow, type LicenseKeyRow } from "./license-keys.sql.js";

export const activationJson = (activation: ActivationRow) => ({
  id: activation.id,
  license_key_id: activation.license_key_id,
  label: activation.label,
  meta: activation.meta,
  created_at: activation.created_at,
  modified_at: activation.modified_at,
});

/** License keys as Polar's LicenseKeyRead, with their customer, read for all at once. */
export async function licenseKeysJson(db: Knex, rows: LicenseKeyRow[]) {
  const customers = await customersWithIds(db, [...new Set(rows.map((row) => row.customer_id))]);
  return rows.map((key) => {
    const customer = customers.find((candidate) => candidate.id === key.customer_id);
    if (!customer) throw new Error(`license key ${key.id} has lost its customer`);
    return {
      id: key.id,
      created_at: key.created_at,
      modified_at: key.modified_at,
      organization_id: key.organization_id,
      customer_id: key.customer_id,
      customer: customerJson(customer),
      benefit_id: key.benefit_id,
      key: key.key,
      display_key: displayKey(key.key),
      status: key.status,
      limit_activations: key.limit_activations,
      usage: key.usage,
      limit_usage: key.limit_usage,
      validations: key.validations,
      last_validated_at: key.last_validated_at,
      expires_at: key.expires_at,
    };
  });
}

export async function licenseKeyJson(db: Knex, key: LicenseKeyRow) {
  const [json] = await licenseKeysJson(db, [key]);
  if (!json) throw new Error(`license key ${key.id} could not be shown`);
  return json;
}

/** LicenseKeyWithActivations: the key and every device it is activated on. */
export async function licenseKeyWithActivationsJson(db: Knex, key: LicenseKeyRow) {
  return { ...(await licenseKeyJson(db, key)), activations: (await activationsOf(db, [key.id])).map(activationJson) };
}
