import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningService, ServiceConfig } from "@tollgate/kit";
import { startTestService } from "@tollgate/kit/testing";
import { PUBLIC_URL, startAuthStack, type AuthStack } from "../../../test/stacks/auth.js";
import { join, organizationOf, password, signedUp, type Person } from "../../../test/stacks/people.js";
import { turnOnTwoFactor } from "../../../test/stacks/two-factor.js";
import type { OrganizationEnv } from "../src/config.js";
import { organizationService } from "../src/service.js";

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

const REQUIRED = { status: 403, code: "TWO_FACTOR_REQUIRED", message: "This organization requires two-factor authentication. Enable it in your account's security settings." };

/** The person, with two-factor authentication turned on through better-auth's own client. */
async function secured(person: Person): Promise<Person> {
  await turnOnTwoFactor(person, password);
  return person;
}

/** A raw call through the gateway with the person's cookies, for what better-auth's client has no method or type for. */
async function call(person: Person, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await person.fetch(`${stack.gateway.url}/api/auth/organization/${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json", origin: PUBLIC_URL },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("an organization that requires two-factor authentication", () => {
  it("is required by an owner who has two-factor, and by no admin or owner without it", async () => {
    const owner = await signedUp(stack, "owner@2fa.example");
    const admin = await signedUp(stack, "admin@2fa.example");
    const org = await organizationOf(owner, "strict");
    await join(owner, org.id, admin, "admin");
    expect(org).toMatchObject({ requireTwoFactor: false });

    // Without two-factor of their own an owner would shut themselves out.
    expect(await call(owner, "update", { organizationId: org.id, data: { requireTwoFactor: true } })).toMatchObject({
      status: 403,
      body: { code: "ENABLE_TWO_FACTOR_BEFORE_REQUIRING_IT" },
    });
    // Admins may rename the organization, but who may reach it is the owners' to say.
    const adminUpdate = await (await secured(admin)).client.organization.update({ organizationId: org.id, data: { requireTwoFactor: true } });
    expect(adminUpdate.error).toMatchObject({ status: 403, code: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION" });

    const ownerClient = (await secured(owner)).client;
    const turnedOn = await ownerClient.organization.update({ organizationId: org.id, data: { requireTwoFactor: true } });
    expect(turnedOn.data).toMatchObject({ id: org.id, requireTwoFactor: true });
    expect((await ownerClient.organization.getFullOrganization({ query: { organizationId: org.id } })).data).toMatchObject({ id: org.id, requireTwoFactor: true });
    // The same owner, once they turn two-factor off, is bound by it too.
    expect((await ownerClient.twoFactor.disable({ password })).error).toBeNull();
    expect((await ownerClient.organization.getFullOrganization({ query: { organizationId: org.id } })).error).toMatchObject(REQUIRED);
  });

  it("refuses a member without two-factor everything but seeing why and leaving, until it is turned off", async () => {
    const owner = await signedUp(stack, "boss@2fa.example");
    const member = await signedUp(stack, "member@2fa.example");
    const leaver = await signedUp(stack, "leaver@2fa.example");
    const org = await organizationOf(owner, "guarded");
    await join(owner, org.id, member);
    await join(owner, org.id, leaver);
    const ownerClient = (await secured(owner)).client;
    expect((await ownerClient.organization.update({ organizationId: org.id, data: { requireTwoFactor: true } })).data).toMatchObject({ requireTwoFactor: true });

    const refused = [
      await member.client.organization.getFullOrganization({ query: { organizationId: org.id } }),
      await member.client.organization.setActive({ organizationId: org.id }),
      await member.client.organization.listMembers({ query: { organizationId: org.id } }),
      await member.client.organization.listTeams({ query: { organizationId: org.id } }),
      await member.client.organization.hasPermission({ organizationId: org.id, permissions: { member: ["create"] } }),
    ];
    for (const answer of refused) expect(answer.error).toMatchObject(REQUIRED);

    // What they need to see why: the organization's name and its requirement, among their organizations.
    expect((await member.client.organization.list()).data).toEqual([expect.objectContaining({ id: org.id, name: "GUARDED", requireTwoFactor: true })]);
    expect(await call(member, `get-organization?organizationId=${org.id}`)).toMatchObject({ status: 200, body: { id: org.id, name: "GUARDED", requireTwoFactor: true } });

    // And they may leave rather than enable it.
    expect((await leaver.client.organization.leave({ organizationId: org.id })).error).toBeNull();
    expect((await leaver.client.organization.list()).data).toEqual([]);

    expect((await ownerClient.organization.update({ organizationId: org.id, data: { requireTwoFactor: false } })).data).toMatchObject({ requireTwoFactor: false });
    const full = await member.client.organization.getFullOrganization({ query: { organizationId: org.id } });
    expect(full.data?.members.map((one) => one.user.email).sort()).toEqual(["boss@2fa.example", "member@2fa.example"]);
    expect((await member.client.organization.setActive({ organizationId: org.id })).data).toMatchObject({ id: org.id, requireTwoFactor: false });
  });
});
