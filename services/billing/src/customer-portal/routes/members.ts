import { z } from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { CustomerPortalMember, CustomerPortalMemberCreate, CustomerPortalMemberList, CustomerPortalMemberListQuery, CustomerPortalMemberUpdate } from "../schemas.js";
import { addTeamMember, changeTeamMember, removeTeamMember, teamMemberPage } from "../team.js";
import type { Parts } from "../../parts.js";

const TAG = "customer_portal";
const byId = z.object({ id: z.string() });

/** A team customer's members, managed in the portal by its owner and billing managers. */
export function portalMemberEndpoints(parts: Pick<Parts, "db" | "units">): Endpoint[] {
  return [
    defineEndpoint("/v1/customer-portal/members", { method: "GET", query: CustomerPortalMemberListQuery, response: CustomerPortalMemberList, summary: "List the members of the customer's team", tag: TAG }, async ({ query, identity }) =>
      teamMemberPage(parts.db, identity, query),
    ),
    defineEndpoint("/v1/customer-portal/members", { method: "POST", status: 201, body: CustomerPortalMemberCreate, response: CustomerPortalMember, summary: "Add a member to the customer's team", tag: TAG }, async ({ body, identity }) =>
      addTeamMember(parts, identity, body),
    ),
    defineEndpoint("/v1/customer-portal/members/:id", { method: "PATCH", params: byId, body: CustomerPortalMemberUpdate, response: CustomerPortalMember, summary: "Update a member of the customer's team", tag: TAG }, async ({ params, body, identity }) =>
      changeTeamMember(parts, identity, params.id, body),
    ),
    defineEndpoint("/v1/customer-portal/members/:id", { method: "DELETE", status: 204, params: byId, summary: "Remove a member from the customer's team", tag: TAG }, async ({ params, identity }) =>
      removeTeamMember(parts, identity, params.id),
    ),
  ];
}
