import { type Listing, request } from "../../api/client";

export type LicenseKeyStatus = "granted" | "revoked" | "disabled";

/** What the console reads of a license key (Polar's LicenseKeyRead). */
export interface LicenseKey {
  id: string;
  created_at: string;
  benefit_id: string;
  customer: { id: string; email: string; name: string | null };
  display_key: string;
  status: LicenseKeyStatus;
  limit_activations: number | null;
  usage: number;
  limit_usage: number | null;
  validations: number;
  last_validated_at: string | null;
  expires_at: string | null;
}

export interface Activation {
  id: string;
  label: string;
  meta: Record<string, string | number | boolean>;
  created_at: string;
}

export interface LicenseKeyQuery {
  organizationId: string;
  benefitId: string;
  sorting: string;
  page: number;
  limit: number;
}

export function listLicenseKeys({ organizationId, benefitId, sorting, page, limit }: LicenseKeyQuery) {
  const query = new URLSearchParams({ organization_id: organizationId, sorting, page: String(page), limit: String(limit) });
  if (benefitId) query.set("benefit_id", benefitId);
  return request<Listing<LicenseKey>>(`/v1/license-keys/?${query.toString()}`);
}

export const getLicenseKey = (id: string) => request<LicenseKey & { activations: Activation[] }>(`/v1/license-keys/${id}`);

/** Polar's LicenseKeyUpdate. */
export interface LicenseKeyUpdate {
  status?: LicenseKeyStatus;
  usage?: number;
  limit_usage?: number | null;
  limit_activations?: number | null;
  expires_at?: string | null;
}

export const updateLicenseKey = (id: string, body: LicenseKeyUpdate) => request<LicenseKey>(`/v1/license-keys/${id}`, { method: "PATCH", body });

/** The seller's license-key benefits, for the list's filter. */
export const listLicenseKeyBenefits = (organizationId: string) =>
  request<Listing<{ id: string; description: string }>>(`/v1/benefits/?organization_id=${organizationId}&type=license_keys&limit=100`);
