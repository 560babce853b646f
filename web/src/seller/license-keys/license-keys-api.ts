import { request, type Listing } from "../../api/client";
import type { LicenseKey, LicenseKeyActivation, RequestBody } from "../../api/wire";

export type { LicenseKey } from "../../api/wire";

export type LicenseKeyStatus = LicenseKey["status"];
export type Activation = LicenseKeyActivation;

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

/** A key with its activations, as its page shows it. */
export type LicenseKeyPageData = LicenseKey & { activations: Activation[] };
export const getLicenseKey = (id: string) => request<LicenseKeyPageData>(`/v1/license-keys/${id}`);

/** Polar's LicenseKeyUpdate. */
export type LicenseKeyUpdate = RequestBody<"/v1/license-keys/{id}", "patch">;

export const updateLicenseKey = (id: string, body: LicenseKeyUpdate) => request<LicenseKey>(`/v1/license-keys/${id}`, { method: "PATCH", body });

/** The seller's license-key benefits, for the list's filter. */
export const listLicenseKeyBenefits = (organizationId: string) =>
  request<Listing<{ id: string; description: string }>>(`/v1/benefits/?organization_id=${organizationId}&type=license_keys&limit=100`);
