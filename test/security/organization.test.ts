import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService } from "@tollgate/kit/testing";
import { PUBLIC_URL, startAuthStack, type AuthStack } from "../stacks/auth.js";
import { join, organizationOf, signedUp, verifyAddress, type Person } from "../stacks/people.js";
import { organizationService } from "../../services/organization/src/service.js";

/**
 * Attacks on organizations, members and invitations (better-auth's organization plugin), run through
 * a real gateway with better-auth's own client, as an outsider would run them. The stack keeps auth's
 * defaults: e-mail verification is not required to sign up and sign in.
 */

let stack: AuthStack;

beforeAll(async () => {
  stack = await startAuthStack({}, {}, { organization: (environment) => startTestService(organizationService, environment) });
});

afterAll(async () => {
  await stack?.stop();
});

const person = (email: string, verified = true) => signedUp(stack, email, { verified });

/** The roles of an organization's members, as one of them sees them. */
async function rolesIn(organizationId: string, asking: Person) {
  const { data } = await asking.client.organization.listMembers({ query: { organizationId } });
  return data?.members.map((member) => member.role) ?? [];
}

describe("#3 an invitation is no key for whoever signs up with the invited address", () => {
  it("someone who cannot prove the address can neither list, see, accept nor decline what was sent to it", async () => {
    const owner = await person("hijack.owner@example.com");
    const org = await organizationOf(owner, "hijack-target");
    const sent = await owner.client.organization.inviteMember({ email: "new.admin@example.com", role: "admin", organizationId: org.id });
    const invitationId = sent.data?.id ?? "";

    const impostor = await person("new.admin@example.com", false);
    expect((await impostor.client.organization.listUserInvitations()).error).toMatchObject({ status: 403, code: "EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION" });
    expect((await impostor.client.organization.getInvitation({ query: { id: invitationId } })).error).toMatchObject({
      status: 403,
      code: "EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION",
    });
    for (const answer of [impostor.client.organization.acceptInvitation({ invitationId }), impostor.client.organization.rejectInvitation({ invitationId })]) {
      expect((await answer).error).toMatchObject({ status: 403, code: "EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION" });
    }
    expect(await rolesIn(org.id, owner)).toEqual(["owner"]);
    expect((await owner.client.organization.listInvitations({ query: { organizationId: org.id } })).data?.map((invitation) => invitation.status)).toEqual(["pending"]);

    // Whoever proves the address is the one it was meant for.
    await verifyAddress(stack, impostor);
    expect((await impostor.client.organization.acceptInvitation({ invitationId })).data).toMatchObject({ member: { userId: impostor.id, role: "admin" } });
  });
});

describe("#12 a role is one of the plugin's roles, not any name an object answers to", () => {
  const inherited = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"];

  it("refuses them when inviting and when changing a role, and nothing answers 500 afterwards", async () => {
    const owner = await person("roles.owner@example.com");
    const member = await person("roles.member@example.com");
    const org = await organizationOf(owner, "inherited-roles");
    const membership = await join(owner, org.id, member);

    for (const role of inherited) {
      // The client's types know the plugin's roles; an attacker's request does not have to.
      const asRole = role as "member";
      expect((await owner.client.organization.inviteMember({ email: `${role}@example.com`, role: asRole, organizationId: org.id })).error, role).toMatchObject({
        status: 400,
        code: "ROLE_NOT_FOUND",
      });
      expect((await owner.client.organization.inviteMember({ email: `${role}@example.com`, role: ["member", asRole], organizationId: org.id })).error, role).toMatchObject({
        status: 400,
        code: "ROLE_NOT_FOUND",
      });
      expect((await owner.client.organization.updateMemberRole({ memberId: membership.id, role: asRole, organizationId: org.id })).error, role).toMatchObject({
        status: 400,
        code: "ROLE_NOT_FOUND",
      });
    }
    expect(await rolesIn(org.id, owner)).toEqual(["owner", "member"]);
    expect((await owner.client.organization.listInvitations({ query: { organizationId: org.id } })).data?.map((invitation) => invitation.role)).toEqual(["member"]);

    // Asked about resources no role has, has-permission answers no; a "__proto__" key is refused at the door.
    for (const someone of [owner, member]) {
      for (const resource of [...inherited, "billing"]) {
        const answer = await someone.client.organization.hasPermission({ organizationId: org.id, permissions: { [resource]: ["read"] } });
        if (resource === "__proto__") expect(answer.error, resource).toMatchObject({ status: 400 });
        else expect(answer.data, resource).toEqual({ error: null, success: false });
      }
      const answers = await Promise.all(
        ["get-full-organization", "list-invitations", "get-active-member-role", "list-members"].map((endpoint) =>
          someone.fetch(`${stack.gateway.url}/api/auth/organization/${endpoint}?organizationId=${org.id}`, { headers: { origin: PUBLIC_URL } }),
        ),
      );
      expect(answers.map((answer) => answer.status).filter((status) => status >= 500)).toEqual([]);
    }
  });
});

describe("#13 two owners going at the same moment leave the organization an owner", () => {
  /** An organization with two owners, both signed in. */
  async function twoOwners(slug: string) {
    const first = await person(`${slug}.first@example.com`);
    const second = await person(`${slug}.second@example.com`);
    const org = await organizationOf(first, slug);
    const secondMember = await join(first, org.id, second, "owner");
    const [firstMember] = (await first.client.organization.listMembers({ query: { organizationId: org.id } })).data?.members ?? [];
    return { org, owners: [{ person: first, memberId: firstMember?.id ?? "" }, { person: second, memberId: secondMember.id }] as const };
  }

  /** Of the two requests exactly one succeeds, the other is refused with one of `codes`, and one of them stays, an owner. */
  async function expectOneOwnerStays(organizationId: string, owners: readonly [{ person: Person }, { person: Person }], answers: { error: unknown }[], codes: RegExp) {
    const refused = answers.map((answer) => answer.error).filter(Boolean);
    expect(refused).toEqual([expect.objectContaining({ status: 400, code: expect.stringMatching(codes) as string })]);
    // Whoever is no longer a member sees no members at all.
    expect([...(await rolesIn(organizationId, owners[0].person)), ...(await rolesIn(organizationId, owners[1].person))]).toEqual(["owner"]);
  }

  it("when both leave", async () => {
    for (let round = 0; round < 5; round++) {
      const { org, owners } = await twoOwners(`both-leave-${round}`);
      const answers = await Promise.all(owners.map(({ person: owner }) => owner.client.organization.leave({ organizationId: org.id })));
      await expectOneOwnerStays(org.id, owners, answers, /^YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER$/);
    }
  });

  it("when each removes the other", async () => {
    for (let round = 0; round < 5; round++) {
      const { org, owners } = await twoOwners(`remove-each-other-${round}`);
      const [first, second] = owners;
      const answers = await Promise.all([
        first.person.client.organization.removeMember({ memberIdOrEmail: second.memberId, organizationId: org.id }),
        second.person.client.organization.removeMember({ memberIdOrEmail: first.memberId, organizationId: org.id }),
      ]);
      // The later one is refused as the only owner, or, when the earlier one has already finished, as no longer a member.
      await expectOneOwnerStays(org.id, owners, answers, /^(YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER|MEMBER_NOT_FOUND)$/);
    }
  });
});
