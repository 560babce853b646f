import { z } from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { requireCaller } from "../caller.js";
import { memberJson } from "../members/output.js";
import type { Parts } from "../parts.js";
import { invitationJson } from "./output.js";
import {
  Invitation,
  InvitationAnswer,
  InvitationDetails,
  InvitationIdBody,
  InvitationIdQuery,
  InvitationListQuery,
  InvitationRequest,
  ReceivedInvitation,
  ReceivedInvitationQuery,
} from "./schemas.js";
import { acceptInvitation, cancelInvitation, invitationForRecipient, inviteMember, organizationInvitations, receivedInvitations, rejectInvitation } from "./service.js";

export function invitationEndpoints(org: Parts): Endpoint[] {
  return [
    defineEndpoint(
      "/organization/invite-member",
      { method: "POST", body: InvitationRequest, response: Invitation, summary: "Invite an e-mail address to an organization (resend renews a pending invitation)", tag: "Organization" },
      async ({ body, identity }) => invitationJson(await inviteMember(org, await requireCaller(org, identity), body)),
    ),

    defineEndpoint(
      "/organization/accept-invitation",
      { method: "POST", body: InvitationIdBody, response: InvitationAnswer, summary: "Accept an invitation: join the organization and make it the active one", tag: "Organization" },
      async ({ body, identity }) => {
        const { accepted, member } = await acceptInvitation(org, await requireCaller(org, identity), body.invitationId);
        return { invitation: invitationJson(accepted), member: memberJson(member) };
      },
    ),

    defineEndpoint(
      "/organization/reject-invitation",
      { method: "POST", body: InvitationIdBody, response: InvitationAnswer, summary: "Turn an invitation down", tag: "Organization" },
      async ({ body, identity }) => ({ invitation: invitationJson(await rejectInvitation(org, await requireCaller(org, identity), body.invitationId)), member: null }),
    ),

    defineEndpoint(
      "/organization/cancel-invitation",
      { method: "POST", body: InvitationIdBody, response: Invitation, summary: "Withdraw a pending invitation", tag: "Organization" },
      async ({ body, identity }) => invitationJson(await cancelInvitation(org, await requireCaller(org, identity), body.invitationId)),
    ),

    defineEndpoint(
      "/organization/get-invitation",
      { method: "GET", query: InvitationIdQuery, response: InvitationDetails, summary: "Get an invitation addressed to the caller, with its organization and inviter", tag: "Organization" },
      async ({ query, identity }) => {
        const { invitation, organization, inviterEmail } = await invitationForRecipient(org, await requireCaller(org, identity), query.id);
        return { ...invitationJson(invitation), organizationName: organization.name, organizationSlug: organization.slug, inviterEmail };
      },
    ),

    defineEndpoint(
      "/organization/list-invitations",
      { method: "GET", query: InvitationListQuery, response: z.array(Invitation), summary: "List an organization's invitations", tag: "Organization" },
      async ({ query, identity }) => (await organizationInvitations(org, await requireCaller(org, identity), query.organizationId)).map(invitationJson),
    ),

    defineEndpoint(
      "/organization/list-user-invitations",
      { method: "GET", query: ReceivedInvitationQuery, response: z.array(ReceivedInvitation), summary: "List the pending invitations addressed to the caller", tag: "Organization" },
      async ({ query, identity }) =>
        (await receivedInvitations(org, await requireCaller(org, identity), query.email)).map(({ invitation, organizationName }) => ({ ...invitationJson(invitation), organizationName })),
    ),
  ];
}
