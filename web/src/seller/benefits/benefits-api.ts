import { request, type Listing } from "../../api/client";
import type { Benefit, FileRead, RequestBody } from "../../api/wire";
import type { PageRequest } from "../../ui/server-listing";

export type { Benefit, Meter } from "../../api/wire";

export const BENEFIT_TYPES = ["custom", "license_keys", "downloadables", "meter_credit", "discord", "github_repository"] as const;
export type BenefitType = (typeof BENEFIT_TYPES)[number];
/** Discord and GitHub benefits need the seller's account connected through Polar's apps, which this console does not do. */
export const CREATABLE_TYPES = ["custom", "license_keys", "downloadables", "meter_credit"] as const;
export type CreatableType = (typeof CREATABLE_TYPES)[number];
export const isCreatable = (type: BenefitType): type is CreatableType => (CREATABLE_TYPES as readonly string[]).includes(type);

/** What the console reads of a license-key benefit's settings (Polar's BenefitLicenseKeysProperties). */
export type LicenseKeysProperties = Extract<Benefit, { type: "license_keys" }>["properties"];
export type Timeframe = NonNullable<LicenseKeysProperties["expires"]>["timeframe"];

/** A benefit as the form sends it (Polar's BenefitCreate for the types made here). */
export type BenefitChange = Extract<RequestBody<"/v1/benefits/", "post">, { type: CreatableType }>;

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

/** What a downloadable benefit lists of its files (Polar's FileRead). */
export type DownloadableFile = FileRead;

export function listFiles(organizationId: string, ids: string[]) {
  const query = new URLSearchParams({ organization_id: organizationId, limit: "100" });
  for (const id of ids) query.append("ids", id);
  return request<Listing<DownloadableFile>>(`/v1/files/?${query.toString()}`);
}
