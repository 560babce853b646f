import { request, type Listing } from "../../api/client";
import type { Benefit, CustomField, Meter } from "../../api/wire";

/** The pickers offer the first hundred of each (Polar's largest page), which is all a seller has in practice. */
const firstPage = (organizationId: string, sorting: string) => new URLSearchParams({ organization_id: organizationId, limit: "100", sorting }).toString();
export const listBenefits = (organizationId: string) => request<Listing<Benefit>>(`/v1/benefits/?${firstPage(organizationId, "description")}`);
export const listCustomFields = (organizationId: string) => request<Listing<CustomField>>(`/v1/custom-fields/?${firstPage(organizationId, "name")}`);
export const listMeters = (organizationId: string) => request<Listing<Meter>>(`/v1/meters/?${firstPage(organizationId, "name")}&is_archived=false`);
