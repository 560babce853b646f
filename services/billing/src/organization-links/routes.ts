import { z } from "zod";
import { defineEndpoint, reachable, type Endpoint } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { findCustomer } from "../customers/service.js";
import { ConsentTokenParams, OrganizationLink, OrganizationLinkAccept, OrganizationLinkInvitation } from "./schemas.js";
import { askForLink, consentInvitation, consentToLink, customerLink, endLink } from "./service.js";
import type { Parts } from "../parts.js";

const TAG = "customers";
const params = z.object({ id: z.string() });

/**
 * Tollgate's own, beside Polar's customers: a team customer's seats following the members of one of
 * the buyer's Tollgate organizations. The seller asks; an owner of that organization consents.
 */
export function organizationLinkEndpoints({ db, units, access }: Pick<Parts, "db" | "units" | "access">): Endpoint[] {
  const customer = async (identity: IdentityClaims, scope: "customers:read" | "customers:write", id: string) => reachable(access, identity, scope, await findCustomer(db, id), "Customer");
  return [
    defineEndpoint("/v1/customers/:id/organization-link", { method: "GET", params, response: OrganizationLink, summary: "Get a team customer's organization link", tag: TAG }, async ({ params, identity }) =>
      customerLink(db, await customer(identity, "customers:read", params.id)),
    ),
    defineEndpoint(
      "/v1/customers/:id/organization-link",
      { method: "POST", status: 201, params, response: OrganizationLink, summary: "Ask that a team customer's seats follow one of the buyer's organizations", tag: TAG },
      async ({ params, identity }) => askForLink(units, await customer(identity, "customers:write", params.id)),
    ),
    defineEndpoint("/v1/customers/:id/organization-link", { method: "DELETE", status: 204, params, summary: "End a team customer's organization link", tag: TAG }, async ({ params, identity }) =>
      endLink(units, await customer(identity, "customers:write", params.id)),
    ),
    defineEndpoint("/v1/me/organization-links/:token", { method: "GET", params: ConsentTokenParams, response: OrganizationLinkInvitation, summary: "Read an organization link invitation", tag: "me" }, async ({ params, identity }) =>
      consentInvitation({ db, access }, identity, params.token),
    ),
    defineEndpoint(
      "/v1/me/organization-links/:token",
      { method: "POST", params: ConsentTokenParams, body: OrganizationLinkAccept, response: OrganizationLink, summary: "Link one of your organizations: its members get the customer's seats", tag: "me" },
      async ({ params, body, identity }) => consentToLink({ units, access }, identity, params.token, body.organization_id),
    ),
  ];
}
