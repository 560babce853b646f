import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { validateEvent as validateEvent047 } from "@polar-sh/sdk/webhooks";
import { createPolar, webhooks } from "polar-sdk-1/2026-10";
import { createDatabase as connectTo, migrate } from "@tollgate/kit";
import { createDatabase, databaseUrl } from "@tollgate/kit/testing";
import { billingMigrations } from "../src/migrations/index.js";
import { startDispatcherStack, type DispatcherStack } from "../../../test/stacks/dispatcher.js";
import type { Seller } from "../../../test/stacks/billing.js";
import { WebhookReceiver } from "../../../test/stacks/receiver.js";

let stack: DispatcherStack;
let shop: Seller;
let polar: ReturnType<typeof createPolar>;

beforeAll(async () => {
  stack = await startDispatcherStack();
  shop = await stack.seller();
  polar = createPolar({ accessToken: shop.token, baseUrl: stack.gateway.url });
});

afterAll(async () => {
  await stack?.stop();
});

const team = (email: string, more: Partial<Parameters<typeof polar.customers.create>[0]> = {}) => polar.customers.create({ email, type: "team", ...more });
const ownersOf = async (customerId: string) => (await polar.customers.members.list(customerId, { role: "owner" })).items.map((member) => member.email);
const refusal = (error: unknown) => error as { statusCode: number; error: unknown };

describe("a customer's owner", () => {
  it("is made with every customer: the customer's own e-mail and name, or the owner the seller names", async () => {
    const individual = await polar.customers.create({ email: "Solo@Example.com", name: "Solo", external_id: "solo-1" });
    expect(individual.type).toBe("individual");
    const [owner] = (await polar.customers.members.list(individual.id)).items;
    expect(owner).toMatchObject({ customer_id: individual.id, email: "solo@example.com", name: "Solo", external_id: "solo-1", role: "owner" });

    const named = await team("acme@example.com", { name: "Acme", owner: { email: "boss@acme.example", name: "Boss", external_id: "boss" } });
    expect(named.type).toBe("team");
    expect((await polar.customers.members.list(named.id)).items).toMatchObject([{ email: "boss@acme.example", name: "Boss", external_id: "boss", role: "owner" }]);
    // A team may leave its e-mail to its owner.
    const unnamed = await polar.customers.create({ type: "team", owner: { email: "lead@crew.example" } });
    expect(unnamed.email).toBe("lead@crew.example");
    await expect(polar.customers.create({ type: "team" })).rejects.toMatchObject({ statusCode: 422 });

    // A checkout's new customer has theirs too.
    const product = await shop.polar.products.create({ name: "Owner's gift", prices: [{ amountType: "free" }] });
    const checkout = await polar.checkouts.create({ products: [product.id] });
    await stack.sdk("").checkouts.clientConfirm({ clientSecret: checkout.client_secret, checkoutConfirmStripe: { customerEmail: "buyer@example.com", customerName: "Buyer" } });
    await expect.poll(async () => (await polar.checkouts.get(checkout.id)).status, { timeout: 10_000 }).toBe("succeeded");
    const buyer = (await polar.checkouts.get(checkout.id)).customer_id ?? "";
    expect((await polar.customers.members.list(buyer)).items).toMatchObject([{ email: "buyer@example.com", name: "Buyer", role: "owner" }]);
  });

  it("is given to every customer made before members were, by migration 0044", async () => {
    const { postgresUrl, runId } = inject("tollgate");
    const database = `${runId}_customer_owners`;
    await createDatabase(postgresUrl, database);
    const url = databaseUrl(postgresUrl, database);
    await migrate({ url, schema: "billing" }, Object.fromEntries(Object.entries(billingMigrations).filter(([name]) => name !== "0044_customer_owners")));
    const db = connectTo({ url, schema: "billing", poolMax: 1 });
    try {
      await db("organizations").insert({ id: "org-1", name: "Shop", slug: "shop" });
      const madeAt = new Date("2025-01-02T03:04:05Z");
      await db("customers").insert([
        { id: "cus-1", organization_id: "org-1", email: "old@example.com", name: "Old", external_id: "old", created_at: madeAt },
        { id: "cus-2", organization_id: "org-1", email: "gone@example.com", deleted_at: new Date() },
      ]);
      await migrate({ url, schema: "billing" }, billingMigrations);
      expect(await db("members").select("customer_id", "email", "name", "external_id", "role", "created_at")).toEqual([
        { customer_id: "cus-1", email: "old@example.com", name: "Old", external_id: "old", role: "owner", created_at: madeAt },
      ]);
    } finally {
      await db.destroy();
    }
  });

  it("follows an individual's e-mail; an individual becomes a team and never goes back", async () => {
    const customer = await polar.customers.create({ email: "moving@example.com" });
    await polar.customers.update(customer.id, { email: "moved@example.com" });
    expect(await ownersOf(customer.id)).toEqual(["moved@example.com"]);
    const [owner] = (await polar.customers.members.list(customer.id)).items;
    await expect(polar.customers.members.update(customer.id, owner?.id ?? "", { email: "elsewhere@example.com" })).rejects.toMatchObject({
      statusCode: 422,
      error: { detail: [{ loc: ["body", "email"], msg: "Cannot change the email of an individual customer's owner. Update the customer's email instead." }] },
    });
    // An individual has their owner alone.
    await expect(polar.customers.members.create(customer.id, { email: "friend@example.com" })).rejects.toMatchObject({
      statusCode: 403,
      error: { error: "NotPermitted", detail: "Individual customers can only have one member (the owner). Upgrade to a team customer to add more members." },
    });

    expect((await polar.customers.update(customer.id, { type: "team" })).type).toBe("team");
    expect((await polar.customers.members.create(customer.id, { email: "friend@example.com" })).role).toBe("member");
    await expect(polar.customers.update(customer.id, { type: "individual" })).rejects.toMatchObject({
      statusCode: 422,
      error: { detail: [{ loc: ["body", "type"], msg: "Customer type cannot be downgraded from 'team' to 'individual'." }] },
    });
  });
});

describe("members", () => {
  it("are added, listed, read, changed and removed through SDK 1.x, by Tollgate's ids or the seller's external ids", async () => {
    const customer = await team("builders@example.com", { external_id: "builders" });
    const ada = await polar.customers.members.create(customer.id, { email: "ada@builders.example", name: "Ada", external_id: "ada" });
    expect(ada).toMatchObject({ customer_id: customer.id, email: "ada@builders.example", name: "Ada", external_id: "ada", role: "member" });
    const grace = await polar.customers.members.createExternal("builders", { email: "grace@builders.example", role: "billing_manager" });
    expect(grace.role).toBe("billing_manager");
    // The same e-mail again, in any case, is the member there is (as Polar answers).
    expect((await polar.customers.members.create(customer.id, { email: "ADA@builders.example" })).id).toBe(ada.id);

    const newestFirst = await polar.customers.members.list(customer.id, { limit: 2 });
    expect(newestFirst.items.map((member) => member.email)).toEqual(["grace@builders.example", "ada@builders.example"]);
    expect(newestFirst.pagination).toEqual({ total_count: 3, max_page: 2 });
    expect((await polar.customers.members.list(customer.id, { sorting: ["created_at"] })).items.map((member) => member.role)).toEqual(["owner", "member", "billing_manager"]);
    expect((await polar.customers.members.listExternal("builders", { role: "billing_manager" })).items.map((member) => member.id)).toEqual([grace.id]);

    expect((await polar.customers.members.get(customer.id, ada.id)).name).toBe("Ada");
    expect((await polar.customers.members.getExternal("builders", "ada")).id).toBe(ada.id);
    expect(await polar.customers.members.update(customer.id, ada.id, { name: "Ada L.", email: "ada.l@builders.example" })).toMatchObject({ name: "Ada L.", email: "ada.l@builders.example" });
    expect((await polar.customers.members.updateExternal("builders", "ada", { role: "billing_manager" })).role).toBe("billing_manager");
    await expect(polar.customers.members.update(customer.id, ada.id, { email: "grace@builders.example" })).rejects.toMatchObject({
      statusCode: 422,
      error: { detail: [{ loc: ["body", "email"], msg: "A member with this email already exists for this customer." }] },
    });

    await polar.customers.members.deleteExternal("builders", "ada");
    await expect(polar.customers.members.get(customer.id, ada.id)).rejects.toMatchObject({ statusCode: 404, error: { error: "ResourceNotFound", detail: "Member not found" } });
    await polar.customers.members.delete(customer.id, grace.id);
    expect((await polar.customers.members.list(customer.id)).items.map((member) => member.role)).toEqual(["owner"]);
    // Removed, an e-mail and an external id may be a member's again.
    expect((await polar.customers.members.create(customer.id, { email: "ada@builders.example", external_id: "ada" })).id).not.toBe(ada.id);

    // A customer deleted takes their members with them.
    await polar.customers.delete(customer.id);
    expect((await shop.polar.members.listMembers({ customerId: customer.id })).result.items).toEqual([]);
  });

  it("refuse an owner added, an external id taken twice, and what is not the seller's", async () => {
    const customer = await team("refusals@example.com");
    const added = await fetch(`${stack.gateway.url}/v1/customers/${customer.id}/members`, {
      method: "POST",
      headers: { authorization: `Bearer ${shop.token}`, "content-type": "application/json" },
      body: JSON.stringify({ email: "second-owner@example.com", role: "owner" }),
    });
    expect(added.status).toBe(422);
    await polar.customers.members.create(customer.id, { email: "one@example.com", external_id: "same" });
    await expect(polar.customers.members.create(customer.id, { email: "two@example.com", external_id: "same" })).rejects.toMatchObject({
      statusCode: 422,
      error: { detail: [{ loc: ["body", "external_id"], msg: "A member with this external ID already exists for this customer." }] },
    });

    const rival = await stack.seller();
    const rivals = createPolar({ accessToken: rival.token, baseUrl: stack.gateway.url });
    const [owner] = (await polar.customers.members.list(customer.id)).items;
    await expect(rivals.customers.members.list(customer.id)).rejects.toMatchObject({ statusCode: 404, error: { detail: "Customer not found" } });
    await expect(rivals.customers.members.get(customer.id, owner?.id ?? "")).rejects.toMatchObject({ statusCode: 404 });
    await expect(rivals.customers.members.create(customer.id, { email: "intruder@example.com" })).rejects.toMatchObject({ statusCode: 404 });
    // A member is found under their own customer only.
    const other = await team("other-team@example.com");
    await expect(polar.customers.members.get(other.id, owner?.id ?? "")).rejects.toMatchObject({ statusCode: 404 });
  });

  it("are the same through 0.47's /v1/members", async () => {
    const customer = await team("legacy@example.com", { external_id: "legacy" });
    const made = await shop.polar.members.createMember({ customerId: customer.id, email: "old@legacy.example", externalId: "old" });
    expect(made).toMatchObject({ customerId: customer.id, role: "member" });
    const listed = await shop.polar.members.listMembers({ customerId: customer.id });
    expect(listed.result.items.map((member) => member.email)).toEqual(["old@legacy.example", "legacy@example.com"]);
    expect((await shop.polar.members.listMembers({ externalCustomerId: "legacy", role: "owner" })).result.items.map((member) => member.email)).toEqual(["legacy@example.com"]);
    expect((await shop.polar.members.getMember({ id: made.id })).email).toBe("old@legacy.example");
    expect((await shop.polar.members.getMemberByExternalId({ externalId: "old", externalCustomerId: "legacy" })).id).toBe(made.id);
    expect((await shop.polar.members.updateMemberByExternalId({ externalId: "old", customerId: customer.id, memberUpdate: { name: "Old Timer" } })).name).toBe("Old Timer");
    expect((await shop.polar.members.updateMember({ id: made.id, memberUpdate: { role: "billing_manager" } })).role).toBe("billing_manager");
    await expect(shop.polar.members.getMemberByExternalId({ externalId: "old" })).rejects.toMatchObject({ statusCode: 422 });
    await shop.polar.members.deleteMemberByExternalId({ externalId: "old", customerId: customer.id });
    await expect(shop.polar.members.getMember({ id: made.id })).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe("the one owner", () => {
  it("cannot be removed or demoted; ownership is handed on, the previous owner staying a billing manager", async () => {
    const customer = await team("owned@example.com");
    const [owner] = (await polar.customers.members.list(customer.id)).items;
    const ownerId = owner?.id ?? "";
    await expect(polar.customers.members.delete(customer.id, ownerId)).rejects.toMatchObject({
      statusCode: 422,
      error: { detail: [{ loc: ["body"], msg: "Cannot delete the only owner. Transfer ownership first.", type: "value_error" }] },
    });
    await expect(polar.customers.members.update(customer.id, ownerId, { role: "member" })).rejects.toMatchObject({
      statusCode: 422,
      error: { detail: [{ loc: ["body", "role"], msg: "Cannot change role. Customer must have exactly one owner." }] },
    });

    const heir = await polar.customers.members.create(customer.id, { email: "heir@example.com" });
    expect((await polar.customers.members.update(customer.id, heir.id, { role: "owner" })).role).toBe("owner");
    expect((await polar.customers.members.get(customer.id, ownerId)).role).toBe("billing_manager");
    await polar.customers.members.delete(customer.id, ownerId);
    expect(await ownersOf(customer.id)).toEqual(["heir@example.com"]);
  });

  it("stays one under concurrent requests: a member promoted while removed, two members promoted at once", async () => {
    for (let round = 0; round < 4; round++) {
      const customer = await team(`race-${round}@example.com`);
      const heir = await polar.customers.members.create(customer.id, { email: `heir-${round}@example.com` });
      const outcomes = await Promise.allSettled([polar.customers.members.update(customer.id, heir.id, { role: "owner" }), polar.customers.members.delete(customer.id, heir.id)]);
      // One of them went first; the other saw it: a removed member is not found, an owner is not removed.
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
      const [rejected] = outcomes.filter((outcome) => outcome.status === "rejected");
      expect([404, 422]).toContain(refusal(rejected?.reason).statusCode);
      expect(await ownersOf(customer.id)).toHaveLength(1);

      const rivals = await Promise.all([1, 2, 3].map((index) => polar.customers.members.create(customer.id, { email: `rival-${round}-${index}@example.com` })));
      await Promise.all(rivals.map((rival) => polar.customers.members.update(customer.id, rival.id, { role: "owner" })));
      expect(await ownersOf(customer.id)).toHaveLength(1);
    }
  });
});

describe("member webhooks", () => {
  it("tell of members made, changed and removed, as SDK 1.x validates them", async () => {
    const receiver = await new WebhookReceiver().start();
    try {
      const endpoint = await polar.webhooks.createWebhookEndpoint({ url: receiver.url, format: "raw", events: ["member.created", "member.updated", "member.deleted"] });
      receiver.secrets = [endpoint.secret];
      const customer = await team("hooked@example.com");
      const member = await polar.customers.members.create(customer.id, { email: "hooked-member@example.com", name: "Hooked" });
      await polar.customers.members.update(customer.id, member.id, { name: "Renamed" });
      await polar.customers.members.delete(customer.id, member.id);

      // Earlier tests' events may still be on their way: this customer's are the ones to read.
      const received = await receiver.waitFor(4, (request) => request.body.includes(customer.id));
      const events = await Promise.all(received.map((request) => webhooks.validateEvent(request.body, request.headers as Record<string, string>, endpoint.secret)));
      // Deliveries may overtake one another: what came is compared, not its order.
      expect(events.map((event) => `${event.type} ${(event.data as { email: string }).email}`).sort()).toEqual([
        "member.created hooked-member@example.com",
        "member.created hooked@example.com",
        "member.deleted hooked-member@example.com",
        "member.updated hooked-member@example.com",
      ]);
      expect(events.find((event) => event.type === "member.updated")?.data).toMatchObject({ id: member.id, customer_id: customer.id, name: "Renamed", role: "member", external_id: null });
      // 0.47 parses the payloads with its schemas.
      for (const request of received) {
        const parsed = validateEvent047(request.body, request.headers as Record<string, string>, endpoint.secret);
        expect(parsed.type).toMatch(/^member\./);
      }
    } finally {
      await receiver.stop();
    }
  });
});

/** SDK 1.x as the portal uses it, with a customer session's token. */
const portalAs = (token: string) => createPolar({ accessToken: token, baseUrl: stack.gateway.url }).customerPortal;

describe("member sessions", () => {
  it("open the portal for the member named, an individual's owner by default; a team names its member", async () => {
    const individual = await polar.customers.create({ email: "session-solo@example.com" });
    const solo = await polar.customerSessions.create({ customer_id: individual.id });
    expect(solo).toMatchObject({ customer_id: individual.id, customer: { id: individual.id, type: "individual" } });
    expect((await portalAs(solo.token).customers.get()).email).toBe("session-solo@example.com");

    const customer = await team("session-team@example.com", { external_id: "session-team" });
    const member = await polar.customers.members.create(customer.id, { email: "seat@example.com", external_id: "seat" });
    await expect(polar.customerSessions.create({ customer_id: customer.id })).rejects.toMatchObject({
      statusCode: 422,
      error: { detail: [{ loc: ["body", "member_id"], msg: "member_id is required for team customers." }] },
    });
    await expect(polar.customerSessions.create({ customer_id: customer.id, member_id: (await polar.customers.members.list(individual.id)).items[0]?.id ?? "" })).rejects.toMatchObject({
      statusCode: 422,
      error: { detail: [{ loc: ["body", "member_id"], msg: "Member does not exist for this customer." }] },
    });
    const byExternalIds = await polar.customerSessions.create({ external_customer_id: "session-team", external_member_id: "seat" });
    expect(byExternalIds.customer_id).toBe(customer.id);
    expect((await portalAs(byExternalIds.token).customers.get()).id).toBe(customer.id);

    // A member removed is signed out (once the gateway has dropped its copy of the session).
    await polar.customers.members.delete(customer.id, member.id);
    await expect.poll(async () => refusal(await portalAs(byExternalIds.token).customers.get().catch((error: unknown) => error)).statusCode).toBe(401);
  });
});

describe("the portal's team", () => {
  it("is managed by the owner and billing managers, not by members, under the same one-owner rule", async () => {
    const customer = await team("portal-team@example.com");
    const [owner] = (await polar.customers.members.list(customer.id)).items;
    const asOwner = portalAs((await polar.customerSessions.create({ customer_id: customer.id, member_id: owner?.id ?? "" })).token);

    const manager = await asOwner.members.addMember({ email: "manager@example.com", name: "Manager", role: "billing_manager" });
    const plain = await asOwner.members.addMember({ email: "plain@example.com" });
    expect(plain).toMatchObject({ email: "plain@example.com", role: "member", name: null });
    expect((await asOwner.members.listMembers()).items.map((member) => member.email)).toEqual(["portal-team@example.com", "manager@example.com", "plain@example.com"]);
    await expect(asOwner.members.addMember({ email: "usurper@example.com", role: "owner" })).rejects.toMatchObject({
      statusCode: 422,
      error: { detail: [{ loc: ["body", "role"], msg: "Cannot add a member as owner. There must be exactly one owner." }] },
    });
    await expect(asOwner.members.removeMember(owner?.id ?? "")).rejects.toMatchObject({ statusCode: 422, error: { detail: [{ loc: ["path", "id"], msg: "You cannot remove yourself from the team." }] } });
    await expect(asOwner.members.updateMember(owner?.id ?? "", { role: "member" })).rejects.toMatchObject({ statusCode: 422, error: { detail: [{ loc: ["path", "id"], msg: "You cannot modify your own role." }] } });

    const asMember = portalAs((await polar.customerSessions.create({ customer_id: customer.id, member_id: plain.id })).token);
    await expect(asMember.members.listMembers()).rejects.toMatchObject({ statusCode: 403, error: { error: "NotPermitted" } });
    await expect(asMember.members.addMember({ email: "friend-of-plain@example.com" })).rejects.toMatchObject({ statusCode: 403 });

    const asManager = portalAs((await polar.customerSessions.create({ customer_id: customer.id, member_id: manager.id })).token);
    expect((await asManager.members.updateMember(plain.id, { name: "Plain Member" })).name).toBe("Plain Member");
    await expect(asManager.members.updateMember(plain.id, { role: "owner" })).rejects.toMatchObject({ statusCode: 422, error: { detail: [{ loc: ["body", "role"], msg: "Only the owner can transfer ownership." }] } });
    await expect(asManager.members.removeMember(owner?.id ?? "")).rejects.toMatchObject({ statusCode: 422, error: { detail: [{ msg: "Cannot delete the only owner. Transfer ownership first." }] } });

    // The owner hands the team on and stays, as a billing manager.
    expect((await asOwner.members.updateMember(manager.id, { role: "owner" })).role).toBe("owner");
    expect(await ownersOf(customer.id)).toEqual(["manager@example.com"]);
    expect((await polar.customers.members.get(customer.id, owner?.id ?? "")).role).toBe("billing_manager");
    await asManager.members.removeMember(plain.id);
    await expect(asMember.members.listMembers()).rejects.toMatchObject({ statusCode: 401 });

    const individual = await polar.customers.create({ email: "portal-solo@example.com" });
    await expect(portalAs((await polar.customerSessions.create({ customer_id: individual.id })).token).members.listMembers()).rejects.toMatchObject({
      statusCode: 403,
      error: { detail: "Member management is only available for team customers. Purchase a seat-based product to enable team features." },
    });
  });

  it("shows a member the grants and license keys they hold, never another member's; the owner sees the customer's", async () => {
    const licence = await polar.benefits.create({ type: "license_keys", description: "Team licence", properties: {} });
    const product = await shop.polar.products.create({ name: "Team tool", prices: [{ amountType: "free" }] });
    await polar.products.updateBenefits(product.id, { benefits: [licence.id] });
    const customer = await team("keys-team@example.com");
    const [ada, bob] = await Promise.all(["ada@keys.example", "bob@keys.example"].map((email) => polar.customers.members.create(customer.id, { email })));
    for (const member of [ada, bob]) {
      const checkout = await polar.checkouts.create({ products: [product.id], customer_id: customer.id });
      await stack.sdk("").checkouts.clientConfirm({ clientSecret: checkout.client_secret, checkoutConfirmStripe: { customerEmail: "keys-team@example.com" } });
      await expect.poll(async () => (await polar.checkouts.get(checkout.id)).status, { timeout: 10_000 }).toBe("succeeded");
      const [order] = (await polar.orders.list({ checkout_id: checkout.id })).items;
      // A seat's claim makes the grant and key its member's; seats are another part of this work, so the rows are marked here as a claim marks them.
      await stack.billing.context.db("benefit_grants").where({ order_id: order?.id ?? "" }).update({ member_id: member?.id });
      await stack.billing.context.db("license_keys").whereIn("id", stack.billing.context.db("benefit_grants").where({ order_id: order?.id ?? "" }).select(stack.billing.context.db.raw("properties->>'license_key_id'"))).update({ member_id: member?.id });
    }

    const sessionOf = async (memberId: string) => portalAs((await polar.customerSessions.create({ customer_id: customer.id, member_id: memberId })).token);
    const asAda = await sessionOf(ada?.id ?? "");
    const [owner] = (await polar.customers.members.list(customer.id, { role: "owner" })).items;
    const asOwner = await sessionOf(owner?.id ?? "");
    const everyKey = (await asOwner.licenseKeys.list()).items;
    expect(everyKey).toHaveLength(2);
    const adas = (await asAda.licenseKeys.list()).items;
    expect(adas).toHaveLength(1);
    const bobsKey = everyKey.find((key) => key.id !== adas[0]?.id);
    await expect(asAda.licenseKeys.get(bobsKey?.id ?? "")).rejects.toMatchObject({ statusCode: 404 });
    expect((await asAda.licenseKeys.get(adas[0]?.id ?? "")).id).toBe(adas[0]?.id);

    const everyGrant = (await asOwner.benefitGrants.list()).items;
    expect(everyGrant).toHaveLength(2);
    // Naming Bob does not show Bob's grants to Ada.
    expect((await asAda.benefitGrants.list({ member_id: bob?.id ?? "" })).items.map((grant) => grant.properties)).toEqual([expect.objectContaining({ license_key_id: adas[0]?.id })]);
    const bobsGrant = everyGrant.find((grant) => (grant.properties as { license_key_id?: string }).license_key_id === bobsKey?.id);
    await expect(asAda.benefitGrants.get(bobsGrant?.id ?? "")).rejects.toMatchObject({ statusCode: 404 });
  });
});
