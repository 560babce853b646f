import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { failureIn, request } from "../api/client";
import type { OrganizationLink, OrganizationLinkInvitation, RequestBody } from "../api/wire";
import { useChange } from "../api/mutations";
import { authClient, viaAuth } from "../api/auth-client";

export const organizationKeys = {
  /** The signed-in person's organizations, as the header's switcher and the start page list them. */
  mine: ["organizations"] as const,
  full: (slug: string) => ["organization", slug] as const,
  /** Every organization read by slug (the prefix of `full`). */
  everyFull: ["organization"] as const,
  invitation: (id: string) => ["invitation", id] as const,
  teamMembers: (teamId: string) => ["team-members", teamId] as const,
  linkInvitation: (token: string) => ["organization-link-invitation", token] as const,
};

export const organizationsQuery = queryOptions({ queryKey: organizationKeys.mine, queryFn: () => viaAuth(() => authClient.organization.list()) });

export const teamMembersQuery = (teamId: string) => queryOptions({ queryKey: organizationKeys.teamMembers(teamId), queryFn: () => viaAuth(() => authClient.organization.listTeamMembers({ query: { teamId } })) });

/** An invitation as its invitee opens it; not retried, as a missing one is an answer. */
export const invitationQuery = (id: string) => queryOptions({ queryKey: organizationKeys.invitation(id), queryFn: () => viaAuth(() => authClient.organization.getInvitation({ query: { id } })), retry: false });

/** An invitation as the person invited reads it: the organization, who invited them, and as what. */
export type Invitation = NonNullable<Awaited<ReturnType<NonNullable<ReturnType<typeof invitationQuery>["queryFn"]>>>>;

/** The organization with its members, invitations and teams, as its screens show it. */
export function useFullOrganization(slug: string) {
  return useQuery({
    queryKey: organizationKeys.full(slug),
    queryFn: () => viaAuth(() => authClient.organization.getFullOrganization({ query: { organizationSlug: slug } })),
  });
}
export type FullOrganization = NonNullable<ReturnType<typeof useFullOrganization>["data"]>;

/** Runs an organization call, then refreshes the organization; its failure in words for the screen, or null. */
export function useOrganizationAction(slug: string) {
  const queryClient = useQueryClient();
  return async (call: () => Promise<unknown>): Promise<string | null> => {
    const failure = await failureIn(call());
    await queryClient.invalidateQueries({ queryKey: organizationKeys.full(slug) });
    return failure;
  };
}

/** Whether an organization requires two-factor authentication of its members (its owners' to say). */
export const useTwoFactorRequirement = (organizationId: string) =>
  useChange(
    (requireTwoFactor: boolean) => viaAuth(() => authClient.organization.update({ organizationId, data: { requireTwoFactor } })),
    // The organization is read by slug, the list by the person: both show the requirement.
    () => [organizationKeys.everyFull, organizationKeys.mine],
  );

/** Leaves an organization: it goes from the person's list, and its screens are no longer theirs. */
export const useLeaveOrganization = () =>
  useChange(
    (organizationId: string) => viaAuth(() => authClient.organization.leave({ organizationId })),
    () => [organizationKeys.everyFull, organizationKeys.mine],
  );

/** Adds someone to a team or takes them off it; refused or not, the team's list shows who is in it. */
export const useTeamMembership = (teamId: string) =>
  useChange(
    ({ userId, add }: { userId: string; add: boolean }): Promise<unknown> =>
      add ? viaAuth(() => authClient.organization.addTeamMember({ teamId, userId })) : viaAuth(() => authClient.organization.removeTeamMember({ teamId, userId })),
    () => [organizationKeys.teamMembers(teamId)],
    { evenIfRefused: true },
  );

const linkInvitationPath = (token: string) => `/v1/me/organization-links/${encodeURIComponent(token)}`;

/** A seller's request that a team's seats follow one of the signed-in person's organizations, as its consent link opens it; not retried, as a used or expired link is an answer. */
export const linkInvitationQuery = (token: string) =>
  queryOptions({ queryKey: organizationKeys.linkInvitation(token), queryFn: () => request<OrganizationLinkInvitation>(linkInvitationPath(token)), retry: false });

/** Consents: the team's seats follow the chosen organization's members from now on. */
export const useConsentToLink = (token: string) =>
  useChange(
    (organizationId: string) => request<OrganizationLink>(linkInvitationPath(token), { method: "POST", body: { organization_id: organizationId } satisfies RequestBody<"/v1/me/organization-links/{token}", "post"> }),
    () => [organizationKeys.linkInvitation(token)],
  );
