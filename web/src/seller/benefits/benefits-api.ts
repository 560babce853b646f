import { type Listing, request } from "../../api/client";
import type { PageRequest } from "../../ui/server-listing";

export const BENEFIT_TYPES = ["custom", "license_keys", "downloadables", "meter_credit", "discord", "github_repository"] as const;
export type BenefitType = (typeof BENEFIT_TYPES)[number];
/** Discord and GitHub benefits need the seller's account connected through Polar's apps, which this console does not do. */
export const CREATABLE_TYPES = ["custom", "license_keys", "downloadables", "meter_credit"] as const;
export type CreatableType = (typeof CREATABLE_TYPES)[number];

export type Timeframe = "day" | "month" | "year";

export interface LicenseKeysProperties {
  prefix: string | null;
  expires: { ttl: number; timeframe: Timeframe } | null;
  activations: { limit: number; enable_customer_admin: boolean } | null;
  limit_usage: number | null;
}

/** What the console reads of a benefit (Polar's Benefit, by type). */
export type Benefit = { id: string; description: string; created_at: string; deletable: boolean } & (
  | { type: "custom"; properties: { note: string | null } }
  | { type: "license_keys"; properties: LicenseKeysProperties }
  | { type: "downloadables"; properties: { files: string[]; archived: Record<string, boolean> } }
  | { type: "meter_credit"; properties: { meter_id: string; units: number; rollover: boolean } }
  | { type: "discord"; properties: Record<string, unknown> }
  | { type: "github_repository"; properties: Record<string, unknown> }
);

/** A benefit as the form sends it (Polar's BenefitCreate for the types made here). */
export type BenefitChange = { description: string } & (
  | { type: "custom"; properties: { note: string | null } }
  | { type: "license_keys"; properties: LicenseKeysProperties }
  | { type: "downloadables"; properties: { files: string[] } }
  | { type: "meter_credit"; properties: { meter_id: string; units: number; rollover: boolean } }
);

export function listBenefits(organizationId: string, filter: { type: BenefitType | ""; search: string }, page: PageRequest) {
  const query = new URLSearchParams({ organization_id: organizationId, sorting: page.sorting, page: String(page.page), limit: String(page.limit) });
  if (filter.type) query.set("type", filter.type);
  if (filter.search) query.set("query", filter.search);
  return request<Listing<Benefit>>(`/v1/benefits/?${query.toString()}`);
}

export const getBenefit = (id: string) => request<Benefit>(`/v1/benefits/${id}`);
export const createBenefit = (organizationId: string, body: BenefitChange) => request<Benefit>("/v1/benefits/", { method: "POST", body: { ...body, organization_id: organizationId } });
export const updateBenefit = (id: string, body: BenefitChange) => request<Benefit>(`/v1/benefits/${id}`, { method: "PATCH", body });
export const deleteBenefit = (id: string) => request<null>(`/v1/benefits/${id}`, { method: "DELETE" });

/** A meter a credit benefit can top up (Polar's Meter, what the picker shows). */
export interface Meter {
  id: string;
  name: string;
}

export function listMeters(organizationId: string) {
  const query = new URLSearchParams({ organization_id: organizationId, is_archived: "false", sorting: "name", limit: "100" });
  return request<Listing<Meter>>(`/v1/meters/?${query.toString()}`);
}

/** What a downloadable benefit lists of its files (Polar's FileRead). */
export interface DownloadableFile {
  id: string;
  name: string;
  size_readable: string;
}

export function listFiles(organizationId: string, ids: string[]) {
  const query = new URLSearchParams({ organization_id: organizationId, limit: "100" });
  for (const id of ids) query.append("ids", id);
  return request<Listing<DownloadableFile>>(`/v1/files/?${query.toString()}`);
}
