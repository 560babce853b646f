import { customerJson } from "../customers/output.js";
import type { ActivationRow, LicenseKeyWithActivations, LicenseKeyWithCustomer, PurchaseOfKey } from "./license-keys.sql.js";

/** The key as shown where it must not be read whole: its last six characters. */
export const displayKey = (key: string) => `****-${key.slice(-6)}`;

export const activationJson = (activation: ActivationRow) => ({
  id: activation.id,
  license_key_id: activation.license_key_id,
  label: activation.label,
  meta: activation.meta,
  created_at: activation.created_at,
  modified_at: activation.modified_at,
});

/** A license key as Polar's LicenseKeyRead, with its customer and the seat member holding it. */
export const licenseKeyJson = (key: LicenseKeyWithCustomer) => ({
  id: key.id,
  created_at: key.created_at,
  modified_at: key.modified_at,
  organization_id: key.organization_id,
  customer_id: key.customer_id,
  customer: customerJson(key.customer),
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
  member_id: key.member_id,
  member: key.member ? { id: key.member.id, email: key.member.email, external_id: key.member.external_id } : null,
});

/** LicenseKeyWithActivations: the key and every device it is activated on. */
export const licenseKeyWithActivationsJson = (key: LicenseKeyWithActivations) => ({ ...licenseKeyJson(key), activations: key.activations.map(activationJson) });

/** A key as a validation or activation shows it (Polar's GrantedLicenseKey): with the purchase it came with. */
export const grantedLicenseKeyJson = (key: LicenseKeyWithCustomer, { subscription, order }: PurchaseOfKey) => ({
  ...licenseKeyJson(key),
  subscription_id: subscription?.id ?? null,
  subscription,
  order_id: order?.id ?? null,
  order,
});
