import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService } from "@tollgate/kit/testing";
import { startAuthStack, type AuthStack } from "../../../test/stacks/auth.js";
import { organizationService } from "../src/service.js";
import { signedUp } from "../../../test/stacks/people.js";

let limited: AuthStack;
let closed: AuthStack;

beforeAll(async () => {
  [limited, closed] = await Promise.all([
    startAuthStack({}, {}, { organization: (environment) => startTestService(organizationService, environment, { ORGANIZATION_LIMIT: "1", MEMBERSHIP_LIMIT: "2" }) }),
    startAuthStack({}, {}, { organization: (environment) => startTestService(organizationService, environment, { ALLOW_USER_TO_CREATE_ORGANIZATION: "false" }) }),
  ]);
});

afterAll(async () => {
  await Promise.all([limited?.stop(), closed?.stop()]);
});

describe("organization limits", () => {
  it("caps how many organizations a user may belong to when creating another", async () => {
    const user = await signedUp(limited, "limited@org.example");
    expect((await user.client.organization.create({ name: "One", slug: "one" })).data).toBeTruthy();
    expect((await user.client.organization.create({ name: "Two", slug: "two" })).error).toMatchObject({
      status: 403,
      code: "YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS",
    });
  });

  it("caps the members of an organization", async () => {
    const owner = await signedUp(limited, "full.owner@org.example");
    const org = (await owner.client.organization.create({ name: "Full", slug: "full" })).data;
    const second = await signedUp(limited, "second@org.example");
    const third = await signedUp(limited, "third@org.example");
    for (const [invitee, email] of [[second, "second@org.example"], [third, "third@org.example"]] as const) {
      await owner.client.organization.inviteMember({ email, role: "member", organizationId: org?.id });
      const [invitation] = (await invitee.client.organization.listUserInvitations()).data ?? [];
      const accepted = await invitee.client.organization.acceptInvitation({ invitationId: invitation?.id ?? "" });
      if (email === "third@org.example") expect(accepted.error).toMatchObject({ status: 403, code: "ORGANIZATION_MEMBERSHIP_LIMIT_REACHED" });
      else expect(accepted.data).toBeTruthy();
    }
  });

  it("can forbid users to create organizations, and never lets a browser create one for someone else", async () => {
    const user = await signedUp(closed, "closed@org.example");
    expect((await user.client.organization.create({ name: "Nope", slug: "nope" })).error).toMatchObject({
      status: 403,
      code: "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION",
    });
    const other = await signedUp(limited, "for.someone@org.example");
    expect((await other.client.organization.create({ name: "Theirs", slug: "theirs", userId: "someone-else" })).error?.status).toBe(401);
    expect((await other.client.organization.listTeams({ query: { organizationId: "not-mine" } })).error).toMatchObject({ status: 403 });
  });
});
