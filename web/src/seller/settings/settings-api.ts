import { request } from "../../api/client";
import type { Organization, RequestBody } from "../../api/wire";

export type { Organization } from "../../api/wire";

export type SocialPlatform = Organization["socials"][number]["platform"];

/** Polar's OrganizationUpdate, of which the settings screen sends parts. */
export type OrganizationUpdate = RequestBody<"/v1/organizations/{id}", "patch">;

export const getOrganization = (id: string) => request<Organization>(`/v1/organizations/${id}`);

export const updateOrganization = (id: string, body: OrganizationUpdate) => request<Organization>(`/v1/organizations/${id}`, { method: "PATCH", body });
