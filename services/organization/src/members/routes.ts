import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { requireCaller } from "../caller.js";
import type { Parts } from "../parts.js";
import { memberJson, memberWithUserJson } from "./output.js";
import {
  LeaveRequest,
  Member,
  MemberListQuery,
  MemberPage,
  MemberRemoval,
  MemberRole,
  MemberRoleChange,
  MemberRoleQuery,
  MemberWithUser,
  PermissionCheck,
  PermissionQuestion,
  RemovedMember,
} from "./schemas.js";
import { activeMember, callerHasPermission, changeMemberRole, leaveOrganization, memberPage, memberRole, removeMemberAsAsked } from "./service.js";

export function memberEndpoints(org: Parts): Endpoint[] {
  return [
    defineEndpoint(
      "/organization/remove-member",
      { method: "POST", body: MemberRemoval, response: RemovedMember, summary: "Remove a member, named by member id or e-mail address, from an organization", tag: "Organization" },
      async ({ body, identity }) => ({ member: memberJson(await removeMemberAsAsked(org, await requireCaller(org, identity), body)) }),
    ),

    defineEndpoint(
      "/organization/update-member-role",
      { method: "POST", body: MemberRoleChange, response: Member, summary: "Change a member's role or roles", tag: "Organization" },
      async ({ body, identity }) => memberJson(await changeMemberRole(org, await requireCaller(org, identity), body)),
    ),

    defineEndpoint(
      "/organization/get-active-member",
      { method: "GET", response: MemberWithUser, summary: "Get the caller's membership of the active organization", tag: "Organization" },
      async ({ identity }) => memberWithUserJson(await activeMember(org, await requireCaller(org, identity))),
    ),

    defineEndpoint(
      "/organization/get-active-member-role",
      { method: "GET", query: MemberRoleQuery, response: MemberRole, summary: "Get the role of the caller, or of another member, in an organization", tag: "Organization" },
      async ({ query, identity }) => ({ role: await memberRole(org, await requireCaller(org, identity), query) }),
    ),

    defineEndpoint(
      "/organization/list-members",
      { method: "GET", query: MemberListQuery, response: MemberPage, summary: "List an organization's members, a page at a time", tag: "Organization" },
      async ({ query, identity }) => {
        const { members, total } = await memberPage(org, await requireCaller(org, identity), query);
        return { members: members.map(memberWithUserJson), total };
      },
    ),

    defineEndpoint(
      "/organization/leave",
      { method: "POST", body: LeaveRequest, response: Member, summary: "Leave an organization", tag: "Organization" },
      async ({ body, identity }) => memberJson(await leaveOrganization(org, await requireCaller(org, identity), body)),
    ),

    defineEndpoint(
      "/organization/has-permission",
      { method: "POST", body: PermissionQuestion, response: PermissionCheck, summary: "Check whether the caller's role in an organization grants the given permissions", tag: "Organization" },
      async ({ body, identity }) => ({ error: null, success: await callerHasPermission(org, await requireCaller(org, identity), body) }),
    ),
  ];
}
