import { z } from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { requireCaller } from "../caller.js";
import { orgError } from "../http/errors.js";
import { invitationJson } from "../invitations/output.js";
import { memberJson, memberWithUserJson } from "../members/output.js";
import type { Parts } from "../parts.js";
import { teamJson } from "../teams/output.js";
import { organizationJson } from "./output.js";
import {
  ActiveOrganizationChoice,
  CreatedOrganization,
  FullOrganization,
  FullOrganizationQuery,
  Organization,
  OrganizationCreate,
  OrganizationIdBody,
  OrganizationQuery,
  OrganizationUpdate,
  SlugFree,
  SlugQuestion,
} from "./schemas.js";
import { activateOrganization, assertSlugFree, callerOrganizations, changeOrganization, createOrganization, fullOrganization, keyOrganization, memberOrganization, removeOrganization } from "./service.js";

export function organizationEndpoints(org: Parts): Endpoint[] {
  return [
    defineEndpoint(
      "/organization/create",
      {
        method: "POST",
        body: OrganizationCreate,
        response: CreatedOrganization,
        summary: "Create an organization, with the caller as its owner and a first team, and make it the active one",
        tag: "Organization",
      },
      async ({ body, identity }) => {
        // Creating for another user (userId) is for trusted server code, which does not come through the gateway.
        if (body.userId !== undefined) throw orgError(401, "UNAUTHORIZED");
        const { organization, member } = await createOrganization(org, await requireCaller(org, identity), body);
        return { ...organizationJson(organization), members: [memberJson(member)] };
      },
    ),

    defineEndpoint(
      "/organization/check-slug",
      { method: "POST", body: SlugQuestion, response: SlugFree, summary: "Check that a slug is free to take", tag: "Organization" },
      async ({ body, identity }) => {
        await requireCaller(org, identity);
        await assertSlugFree(org, body.slug);
        return { status: true };
      },
    ),

    defineEndpoint(
      "/organization/update",
      { method: "POST", body: OrganizationUpdate, response: Organization, summary: "Change an organization's name, slug, logo or metadata", tag: "Organization" },
      async ({ body, identity }) => organizationJson(await changeOrganization(org, await requireCaller(org, identity), body)),
    ),

    defineEndpoint(
      "/organization/delete",
      { method: "POST", body: OrganizationIdBody, response: Organization, summary: "Delete an organization with its members, invitations and teams", tag: "Organization" },
      async ({ body, identity }) => organizationJson(await removeOrganization(org, await requireCaller(org, identity), body.organizationId)),
    ),

    defineEndpoint("/organization/list", { method: "GET", response: z.array(Organization), summary: "List the organizations the caller belongs to", tag: "Organization" }, async ({ identity }) =>
      (await callerOrganizations(org, await requireCaller(org, identity))).map(organizationJson),
    ),

    defineEndpoint(
      "/organization/set-active",
      { method: "POST", body: ActiveOrganizationChoice, response: Organization.nullable(), summary: "Make an organization the session's active one (null clears it)", tag: "Organization" },
      async ({ body, identity }) => {
        const organization = await activateOrganization(org, await requireCaller(org, identity), body);
        return organization && organizationJson(organization);
      },
    ),

    defineEndpoint(
      "/organization/get-full-organization",
      {
        method: "GET",
        query: FullOrganizationQuery,
        response: FullOrganization.nullable(),
        summary: "Get an organization (the active one by default) with its members, invitations and teams",
        tag: "Organization",
      },
      async ({ query, identity }) => {
        const full =
          identity.kind === "organization_api_key"
            ? await keyOrganization(org, identity.organization_id, query)
            : await fullOrganization(org, await requireCaller(org, identity), query);
        if (!full) return null;
        return {
          ...organizationJson(full.organization),
          members: full.members.map(memberWithUserJson),
          invitations: full.invitations.map(invitationJson),
          teams: full.teams.map(teamJson),
        };
      },
    ),

    defineEndpoint(
      "/organization/get-organization",
      { method: "GET", query: OrganizationQuery, response: Organization.nullable(), summary: "Get an organization (the active one by default)", tag: "Organization" },
      async ({ query, identity }) => {
        const organization = await memberOrganization(org, await requireCaller(org, identity), query);
        return organization && organizationJson(organization);
      },
    ),
  ];
}
