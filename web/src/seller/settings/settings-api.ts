import { request } from "../../api/client";
import type { Organization, RequestBody, TaxSettings } from "../../api/wire";

export type { Organization, TaxSettings } from "../../api/wire";

export type SocialPlatform = Organization["socials"][number]["platform"];

/** Polar's OrganizationUpdate, of which the settings screen sends parts. */
export type OrganizationUpdate = RequestBody<"/v1/organizations/{id}", "patch">;

export const getOrganization = (id: string) => request<Organization>(`/v1/organizations/${id}`);

export const updateOrganization = (id: string, body: OrganizationUpdate) => request<Organization>(`/v1/organizations/${id}`, { method: "PATCH", body });

/** Tollgate's own tax settings: where the seller charges tax, and what their invoices say of them. */
export type TaxSettingsUpdate = RequestBody<"/v1/organizations/{id}/tax-settings", "patch">;

export const getTaxSettings = (id: string) => request<TaxSettings>(`/v1/organizations/${id}/tax-settings`);

export const updateTaxSettings = (id: string, body: TaxSettingsUpdate) => request<TaxSettings>(`/v1/organizations/${id}/tax-settings`, { method: "PATCH", body });
