import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningService, ServiceConfig } from "@tollgate/kit";
import { publishedEvents, startTestService } from "@tollgate/kit/testing";
import { startAuthStack, type AuthStack } from "../../../test/stacks/auth.js";
import { readMailbox } from "../../../test/stacks/dev-mailbox.js";
import type { OrganizationEnv } from "../src/config.js";
import { ownersOf } from "../src/members/members.sql.js";
import { organizationService } from "../src/service.js";
import { join, organizationOf, signedUp, verifyAddress, type Person } from "../../../test/stacks/people.js";

let stack: AuthStack;
let organizations: RunningService<ServiceConfig<OrganizationEnv>>;

beforeAll(async () => {
  stack = await startAuthStack({}, {}, {
    organization: async (environment) => {
      organizations = await startTestService(organizationService, environment);
      return organizations;
    },
  });
});

afterAll(async () => {
  await stack?.stop();
});

/** Signed up with a verified address: invitations are answered only from one. */
const person = (email: string) => signedUp(stack, email);

describe("organizations", () => {
  it("makes the creator owner, starts a team, and makes it the session's active organization", async () => {
    const ada = await person("ada@org.example");
    const created = await ada.client.organization.create({ name: "Analytical", slug: "analytical", metadata: { plan: "pro" } });
    expect(created.data).toMatchObject({ name: "Analytical", slug: "analytical", logo: null, metadata: { plan: "pro" } });
    expect(created.data?.members).toEqual([expect.objectContaining({ userId: ada.id, role: "owner" })]);
    const session = (await ada.client.getSession()).data?.session;
    expect(session).toMatchObject({ activeOrganizationId: created.data?.id, activeTeamId: expect.any(String) as string });

    const full = await ada.client.organization.getFullOrganization();
    expect(full.data).toMatchObject({ id: created.data?.id, members: [{ role: "owner", user: { id: ada.id, email: "ada@org.example", name: "ada" } }], invitations: [] });
    expect(full.data?.teams).toEqual([expect.objectContaining({ name: "Analytical" })]);
    expect((await ada.client.organization.list()).data?.map((o) => o.slug)).toEqual(["analytical"]);
  });

  it("keeps slugs unique", async () => {
    const grace = await person("grace@org.example");
    await organizationOf(grace, "cobol");
    expect((await grace.client.organization.checkSlug({ slug: "cobol" })).error).toMatchObject({ status: 400, code: "ORGANIZATION_SLUG_ALREADY_TAKEN" });
    expect((await grace.client.organization.checkSlug({ slug: "fortran" })).data).toEqual({ status: true });
    expect((await grace.client.organization.create({ name: "Again", slug: "cobol" })).error).toMatchObject({ status: 400, code: "ORGANIZATION_ALREADY_EXISTS" });
  });

  it("keeps the site's own paths out of slugs: an organization's portal lives at /{slug}/portal", async () => {
    const linus = await person("linus@org.example");
    expect((await linus.client.organization.checkSlug({ slug: "checkout" })).error).toMatchObject({ status: 400, code: "ORGANIZATION_SLUG_ALREADY_TAKEN" });
    expect((await linus.client.organization.create({ name: "API", slug: "API" })).error).toMatchObject({ status: 400, code: "ORGANIZATION_ALREADY_EXISTS" });
    const own = await organizationOf(linus, "kernel");
    expect((await linus.client.organization.update({ organizationId: own.id, data: { slug: "v1" } })).error).toMatchObject({ status: 400, code: "ORGANIZATION_SLUG_ALREADY_TAKEN" });
    expect((await linus.client.organization.update({ organizationId: own.id, data: { slug: "kernel" } })).data).toMatchObject({ slug: "kernel" });
  });

  it("keeps the current active organization when asked", async () => {
    const alan = await person("alan@org.example");
    const first = await organizationOf(alan, "enigma");
    await alan.client.organization.create({ name: "Second", slug: "bombe", keepCurrentActiveOrganization: true });
    expect((await alan.client.getSession()).data?.session).toMatchObject({ activeOrganizationId: first.id });
  });

  it("lets owners and admins update, only owners delete, and members neither", async () => {
    const owner = await person("owner@org.example");
    const admin = await person("admin@org.example");
    const member = await person("member@org.example");
    const org = await organizationOf(owner, "roles-org");
    await join(owner, org.id, admin, "admin");
    await join(owner, org.id, member);

    expect((await admin.client.organization.update({ organizationId: org.id, data: { name: "Renamed" } })).data).toMatchObject({ name: "Renamed" });
    expect((await member.client.organization.update({ organizationId: org.id, data: { name: "Nope" } })).error).toMatchObject({
      status: 403,
      code: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION",
    });
    expect((await admin.client.organization.delete({ organizationId: org.id })).error).toMatchObject({ status: 403, code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION" });
    expect((await owner.client.organization.delete({ organizationId: org.id })).data).toMatchObject({ id: org.id });
    expect((await member.client.organization.list()).data).toEqual([]);
    expect((await owner.client.getSession()).data?.session.activeOrganizationId).toBeNull();
  });

  it("switches the active organization by id or slug, and only to one the user belongs to", async () => {
    const user = await person("switcher@org.example");
    const first = await organizationOf(user, "switch-one");
    const second = await organizationOf(user, "switch-two");
    expect((await user.client.getSession()).data?.session.activeOrganizationId).toBe(second.id);
    expect((await user.client.organization.setActive({ organizationSlug: "switch-one" })).data).toMatchObject({ id: first.id });
    expect((await user.client.getSession()).data?.session.activeOrganizationId).toBe(first.id);
    expect((await user.client.organization.setActive({ organizationId: null })).data).toBeNull();
    expect((await user.client.getSession()).data?.session.activeOrganizationId).toBeNull();
    const stranger = await person("switch.stranger@org.example");
    expect((await stranger.client.organization.setActive({ organizationId: first.id })).error).toMatchObject({ status: 403, code: "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION" });
  });

  it("answers bad input with a clear 4xx and writes nothing", async () => {
    const user = await person("careless@org.example");
    const post = (body: string) =>
      user.fetch(`${stack.gateway.url}/api/auth/organization/create`, { method: "POST", headers: { "content-type": "application/json", origin: "http://localhost:3000" }, body });
    const missing = await post(JSON.stringify({ name: "" }));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ code: "VALIDATION_ERROR" });
    expect((await post(JSON.stringify({ name: "M", slug: "m", metadata: "not an object" }))).status).toBe(400);
    expect((await post("{broken")).status).toBe(400);
    expect((await user.client.organization.list()).data).toEqual([]);
  });

  it("answers has-permission from the member's roles", async () => {
    const owner = await person("perm.owner@org.example");
    const member = await person("perm.member@org.example");
    const org = await organizationOf(owner, "perms");
    await join(owner, org.id, member);
    expect((await owner.client.organization.hasPermission({ permissions: { organization: ["delete"] } })).data).toEqual({ error: null, success: true });
    expect((await member.client.organization.hasPermission({ permissions: { member: ["create"] } })).data).toEqual({ error: null, success: false });
  });
});

describe("invitations", () => {
  it("mails an accept link; the invitee joins with the invited role and team, and it becomes their active organization", async () => {
    const owner = await person("inviter@org.example");
    const org = await organizationOf(owner, "invites");
    const team = (await owner.client.organization.listTeams()).data?.[0];
    const invitee = await person("Invitee@Org.example");
    const invited = await owner.client.organization.inviteMember({ email: "INVITEE@org.example", role: "admin", teamId: team?.id });
    expect(invited.data).toMatchObject({ email: "invitee@org.example", role: "admin", status: "pending", organizationId: org.id });
    const lifetime = new Date(invited.data?.expiresAt ?? 0).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(47.9 * 3600_000);

    await expect
      .poll(async () => (await readMailbox(stack)).find((mail) => mail.to === "invitee@org.example")?.links[0], { timeout: 5_000 })
      .toBe(`http://localhost:3000/accept-invitation/${invited.data?.id}`);

    const seen = await invitee.client.organization.getInvitation({ query: { id: invited.data?.id ?? "" } });
    expect(seen.data).toMatchObject({ organizationName: "INVITES", organizationSlug: "invites", inviterEmail: "inviter@org.example" });
    const accepted = await invitee.client.organization.acceptInvitation({ invitationId: invited.data?.id ?? "" });
    expect(accepted.data).toMatchObject({ invitation: { status: "accepted" }, member: { userId: invitee.id, role: "admin" } });
    expect((await invitee.client.getSession()).data?.session).toMatchObject({ activeOrganizationId: org.id, activeTeamId: team?.id });
    expect((await invitee.client.organization.listUserTeams()).data?.map((t) => t.id)).toEqual([team?.id]);
  });

  it("can be answered only by its recipient, only while pending and unexpired", async () => {
    const owner = await person("gatekeeper@org.example");
    const org = await organizationOf(owner, "gated");
    const stranger = await person("stranger@org.example");
    const invitee = await person("expected@org.example");
    const invitation = (await owner.client.organization.inviteMember({ email: invitee.email, role: "member", organizationId: org.id })).data;
    expect((await stranger.client.organization.acceptInvitation({ invitationId: invitation?.id ?? "" })).error).toMatchObject({
      status: 403,
      code: "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION",
    });
    expect((await invitee.client.organization.rejectInvitation({ invitationId: invitation?.id ?? "" })).data).toMatchObject({ invitation: { status: "rejected" }, member: null });
    expect((await invitee.client.organization.acceptInvitation({ invitationId: invitation?.id ?? "" })).error).toMatchObject({ code: "INVITATION_NOT_FOUND" });

    const late = (await owner.client.organization.inviteMember({ email: invitee.email, role: "member", organizationId: org.id })).data;
    await organizations.context.db("invitations").where({ id: late?.id }).update({ expires_at: new Date(Date.now() - 60_000) });
    expect((await invitee.client.organization.acceptInvitation({ invitationId: late?.id ?? "" })).error).toMatchObject({ code: "INVITATION_NOT_FOUND" });
  });

  it("is refused twice, cancelled by those who may, and dead once its inviter has left", async () => {
    const owner = await person("boss@org.example");
    const admin = await person("deputy@org.example");
    const org = await organizationOf(owner, "cancels");
    await join(owner, org.id, admin, "admin");
    const target = await person("target@org.example");
    const first = await admin.client.organization.inviteMember({ email: target.email, role: "member", organizationId: org.id });
    expect((await admin.client.organization.inviteMember({ email: target.email, role: "member", organizationId: org.id })).error).toMatchObject({
      code: "USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION",
    });
    expect((await admin.client.organization.inviteMember({ email: "x@org.example", role: "owner", organizationId: org.id })).error).toMatchObject({
      status: 403,
      code: "YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE",
    });
    await admin.client.organization.leave({ organizationId: org.id });
    expect((await target.client.organization.acceptInvitation({ invitationId: first.data?.id ?? "" })).error).toMatchObject({
      code: "INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION",
    });
    expect((await owner.client.organization.cancelInvitation({ invitationId: first.data?.id ?? "" })).data).toMatchObject({ status: "canceled" });
    expect((await owner.client.organization.listInvitations({ query: { organizationId: org.id } })).data?.map((i) => i.status)).toEqual(["accepted", "canceled"]);
  });

  it("creates one member when the same invitation is accepted twice at once", async () => {
    const owner = await person("race.owner@org.example");
    const org = await organizationOf(owner, "race");
    const invitee = await person("racer@org.example");
    const invitation = (await owner.client.organization.inviteMember({ email: invitee.email, role: "member", organizationId: org.id })).data;
    const results = await Promise.all([1, 2, 3].map(() => invitee.client.organization.acceptInvitation({ invitationId: invitation?.id ?? "" })));
    expect(results.filter((result) => result.data).length).toBe(1);
    expect((await owner.client.organization.listMembers({ query: { organizationId: org.id } })).data?.total).toBe(2);
  });

  it("are seen and answered only from a verified address, refused as better-auth's plugin refuses", async () => {
    const owner = await person("proof.owner@org.example");
    const org = await organizationOf(owner, "proof");
    const unproven = await signedUp(stack, "unproven@org.example", { verified: false });
    const bystander = await signedUp(stack, "bystander@org.example", { verified: false });
    const id = (await owner.client.organization.inviteMember({ email: unproven.email, role: "member", organizationId: org.id })).data?.id ?? "";
    const toView = { status: 403, code: "EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION", message: "Email verification required to view or list invitations for the session email" };
    const toAnswer = {
      status: 403,
      code: "EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION",
      message: "Email verification required before accepting or rejecting invitation",
    };
    // Someone else's invitation is not theirs, whatever their own address.
    expect((await bystander.client.organization.getInvitation({ query: { id } })).error).toMatchObject({ status: 403, code: "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION" });
    expect((await unproven.client.organization.getInvitation({ query: { id } })).error).toMatchObject(toView);
    expect((await unproven.client.organization.listUserInvitations()).error).toMatchObject(toView);
    expect((await unproven.client.organization.acceptInvitation({ invitationId: id })).error).toMatchObject(toAnswer);
    expect((await unproven.client.organization.rejectInvitation({ invitationId: id })).error).toMatchObject(toAnswer);

    await verifyAddress(stack, unproven);
    const [listed, ...others] = (await unproven.client.organization.listUserInvitations()).data ?? [];
    expect(others).toEqual([]);
    // As better-auth lists them: the organization by name.
    expect(listed).toMatchObject({ id, organizationName: expect.any(String) as string });
    expect((await unproven.client.organization.getInvitation({ query: { id } })).data).toMatchObject({ id, organizationSlug: "proof" });
    expect((await unproven.client.organization.rejectInvitation({ invitationId: id })).data).toMatchObject({ invitation: { status: "rejected" } });
  });
});

describe("members", () => {
  it("lists members to members only, with their users", async () => {
    const owner = await person("lister@org.example");
    const org = await organizationOf(owner, "listing");
    const outsider = await person("outsider@org.example");
    const listed = await owner.client.organization.listMembers();
    expect(listed.data).toMatchObject({ total: 1, members: [{ user: { email: "lister@org.example" }, role: "owner" }] });
    expect((await outsider.client.organization.listMembers({ query: { organizationId: org.id } })).error).toMatchObject({
      status: 403,
      code: "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION",
    });
    expect((await owner.client.organization.getActiveMember()).data).toMatchObject({ role: "owner", user: { id: owner.id } });
    expect((await owner.client.organization.getActiveMemberRole()).data).toEqual({ role: "owner" });
  });

  it("keeps an owner: the only owner cannot leave or be removed, and only owners change owners", async () => {
    const owner = await person("sole@org.example");
    const admin = await person("helper@org.example");
    const org = await organizationOf(owner, "ownership");
    const adminMember = await join(owner, org.id, admin, "admin");
    expect((await owner.client.organization.leave({ organizationId: org.id })).error).toMatchObject({ code: "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER" });
    expect((await admin.client.organization.removeMember({ memberIdOrEmail: owner.email, organizationId: org.id })).error).toMatchObject({
      code: "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER",
    });
    expect((await admin.client.organization.updateMemberRole({ memberId: adminMember.id, role: "owner", organizationId: org.id })).error).toMatchObject({
      status: 403,
      code: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER",
    });
    expect((await owner.client.organization.updateMemberRole({ memberId: adminMember.id, role: ["admin", "owner"], organizationId: org.id })).data).toMatchObject({
      role: "admin,owner",
    });
    // With a second owner, the first may go.
    expect((await owner.client.organization.leave({ organizationId: org.id })).data).toMatchObject({ userId: owner.id });
    expect((await owner.client.getSession()).data?.session.activeOrganizationId).toBeNull();
  });

  /** How many of this database's connections wait for a lock another holds. */
  const waitingForLocks = async () =>
    (await organizations.context.db.raw<{ rows: { count: number }[] }>("select count(*)::int as count from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'")).rows[0]?.count;

  it.each([
    { move: "leave", refusal: "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER", act: (owner: Person, organizationId: string) => owner.client.organization.leave({ organizationId }) },
    {
      move: "remove each other",
      refusal: "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER",
      act: (owner: Person, organizationId: string, otherMemberId: string) => owner.client.organization.removeMember({ memberIdOrEmail: otherMemberId, organizationId }),
    },
    {
      move: "demote each other",
      refusal: "YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER",
      act: (owner: Person, organizationId: string, otherMemberId: string) => owner.client.organization.updateMemberRole({ memberId: otherMemberId, role: "admin", organizationId }),
    },
  ])("keeps an owner when two owners $move at once, however their requests interleave", async ({ move, refusal, act }) => {
    const slug = move.replaceAll(" ", "-");
    const first = await person(`${slug}.first@org.example`);
    const second = await person(`${slug}.second@org.example`);
    const org = await organizationOf(first, slug);
    const memberIds = [org.members[0]?.id ?? "", (await join(first, org.id, second, "owner")).id];
    const { db } = organizations.context;
    // Both memberships held: each request gets as far as it can before it writes, and waits there.
    const hold = await db.transaction();
    try {
      await hold("members").where({ organization_id: org.id }).forUpdate().select("id");
      const answering = Promise.all([first, second].map((owner, index) => act(owner, org.id, memberIds[1 - index] ?? "")));
      await expect.poll(waitingForLocks, { timeout: 5_000 }).toBe(2);
      await hold.commit();
      const answers = await answering;
      expect(answers.map((answer) => answer.error).filter(Boolean)).toEqual([expect.objectContaining({ status: 400, code: refusal })]);
      expect(await ownersOf(db, org.id)).toHaveLength(1);
    } finally {
      if (!hold.isCompleted()) await hold.rollback();
    }
  });

  it("removes a member, who loses the organization from their session", async () => {
    const owner = await person("remover@org.example");
    const member = await person("removed.member@org.example");
    const org = await organizationOf(owner, "removals");
    await join(owner, org.id, member);
    expect((await member.client.getSession()).data?.session.activeOrganizationId).toBe(org.id);
    expect((await owner.client.organization.removeMember({ memberIdOrEmail: member.email, organizationId: org.id })).data).toMatchObject({
      member: { userId: member.id },
    });
    await expect.poll(async () => (await member.client.getSession()).data?.session.activeOrganizationId, { timeout: 5_000 }).toBeNull();
    expect((await member.client.organization.getFullOrganization({ query: { organizationId: org.id } })).error).toMatchObject({ status: 403 });
  });
});

describe("teams", () => {
  it("are created, renamed, listed, joined and left", async () => {
    const owner = await person("teamer@org.example");
    const member = await person("teammate@org.example");
    const org = await organizationOf(owner, "teams");
    await join(owner, org.id, member);
    expect((await owner.client.organization.createTeam({ name: "" })).error).toMatchObject({ status: 400 });
    const team = (await owner.client.organization.createTeam({ name: "Platform" })).data;
    expect(team).toMatchObject({ name: "Platform", organizationId: org.id });
    expect((await owner.client.organization.updateTeam({ teamId: team?.id ?? "", data: { name: "Core" } })).data).toMatchObject({ name: "Core" });
    expect((await member.client.organization.createTeam({ name: "Mine" })).error).toMatchObject({ code: "YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION" });

    expect((await owner.client.organization.addTeamMember({ teamId: team?.id ?? "", userId: member.id })).data).toMatchObject({ teamId: team?.id, userId: member.id });
    expect((await member.client.organization.setActiveTeam({ teamId: team?.id ?? "" })).data).toMatchObject({ id: team?.id });
    expect((await member.client.organization.listTeamMembers()).data?.map((m) => m.userId)).toEqual([member.id]);
    expect((await owner.client.organization.removeTeamMember({ teamId: team?.id ?? "", userId: member.id })).data).toBeTruthy();
    expect((await member.client.organization.listTeamMembers({ query: { teamId: team?.id ?? "" } })).error).toMatchObject({ code: "USER_IS_NOT_A_MEMBER_OF_THE_TEAM" });
    expect((await owner.client.organization.listTeams()).data?.map((t) => t.name).sort()).toEqual(["Core", "TEAMS"]);
  });

  it("refuses to remove the last team or the team one is working in", async () => {
    const owner = await person("lastteam@org.example");
    await organizationOf(owner, "lastteam");
    const [only] = (await owner.client.organization.listTeams()).data ?? [];
    expect((await owner.client.organization.removeTeam({ teamId: only?.id ?? "" })).error).toMatchObject({ status: 403, code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM" });
    await owner.client.organization.setActiveTeam({ teamId: null });
    expect((await owner.client.organization.removeTeam({ teamId: only?.id ?? "" })).error).toMatchObject({ code: "UNABLE_TO_REMOVE_LAST_TEAM" });
    const second = (await owner.client.organization.createTeam({ name: "Second" })).data;
    expect((await owner.client.organization.removeTeam({ teamId: second?.id ?? "" })).data).toEqual({ message: "Team removed successfully." });
  });
});

describe("events", () => {
  it("tells other services about organizations, members, invitations and teams", async () => {
    const owner = await person("evented.owner@org.example");
    const org = await organizationOf(owner, "evented");
    const guest = await person("evented.guest@org.example");
    await join(owner, org.id, guest);
    const mine = async () =>
      (await publishedEvents(stack.auth.context.bus)).filter((event) => event.source === "organization" && (event.data.organization_id === org.id || event.data.id === org.id)).map((event) => event.type);
    // The outbox relay publishes on its next poll.
    await expect.poll(mine, { timeout: 5_000 }).toEqual(["organization.created", "member.added", "team.created", "invitation.created", "invitation.accepted", "member.added"]);
  });
});

describe("users who go", () => {
  it("lose their memberships, and their organization keeps an owner", async () => {
    const founder = await person("founder@org.example");
    const colleague = await person("colleague@org.example");
    const org = await organizationOf(founder, "succession");
    await join(founder, org.id, colleague, "admin");
    expect((await founder.client.deleteUser({})).data).toMatchObject({ success: true });
    await expect
      .poll(async () => (await colleague.client.organization.listMembers({ query: { organizationId: org.id } })).data?.members.map((m) => [m.userId, m.role]), {
        timeout: 5_000,
      })
      .toEqual([[colleague.id, "admin,owner"]]);
  });
});
