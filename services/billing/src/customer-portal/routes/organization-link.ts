import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { OrganizationLink, OrganizationLinkConsent } from "../../organization-links/schemas.js";
import { portalOrganizationConsent, portalOrganizationLink } from "../organization-link.js";
import type { Parts } from "../../parts.js";

const TAG = "customer_portal";

/** Tollgate's own: the team's owner lets the customer's seats follow one of their Tollgate organizations. */
export function portalOrganizationLinkEndpoints({ db, config }: Pick<Parts, "db" | "config">): Endpoint[] {
  return [
    defineEndpoint("/v1/customer-portal/organization-link", { method: "GET", response: OrganizationLink, summary: "Get the link the seller asked for between the team and an organization", tag: TAG }, async ({ identity }) =>
      portalOrganizationLink(db, identity),
    ),
    defineEndpoint(
      "/v1/customer-portal/organization-link/consent",
      { method: "POST", response: OrganizationLinkConsent, summary: "Go on to pick the organization whose members get the team's seats", tag: TAG },
      async ({ identity }) => portalOrganizationConsent(db, identity, config.PUBLIC_URL),
    ),
  ];
}
