import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService } from "@tollgate/kit/testing";
import { organizationService } from "../../organization/src/service.js";
import { startAuthStack, type AuthStack } from "../../../test/stacks/auth.js";
import { join, organizationOf, signedUp, type Person } from "../../../test/stacks/people.js";

const RATE_LIMIT_MAX = 5;
const RATE_LIMIT_WINDOW_MS = 3_000;

let stack: AuthStack;

beforeAll(async () => {
  stack = await startAuthStack(
    { API_KEY_RATE_LIMIT_MAX: String(RATE_LIMIT_MAX), API_KEY_RATE_LIMIT_WINDOW_MS: String(RATE_LIMIT_WINDOW_MS) },
    {},
    { organization: (environment) => startTestService(organizationService, environment) },
  );
});

afterAll(async () => {
  await stack?.stop();
});

/** A request through the gateway with nothing but the key: no cookies, as a script would send it. */
const withKey = (key: string, path: string) => fetch(`${stack.gateway.url}/api/auth${path}`, { headers: { "x-api-key": key } });

async function newKey(person: Person, body: { name?: string; organizationId?: string } = {}) {
  const created = await person.client.apiKey.create(body);
  if (!created.data) throw new Error(`create failed: ${JSON.stringify(created.error)}`);
  return created.data;
}

/** Moves a key's stored state as time or the server would (expiry passed, uses spent): clients cannot set these. */
const setKey = (id: string, values: Record<string, unknown>) => stack.auth.context.db("api_keys").where({ id }).update(values);

describe("API keys", () => {
  it("shows the key once, at creation; afterwards only its start", async () => {
    const ada = await signedUp(stack, "ada@keys.example");
    const created = await newKey(ada, { name: "deploy" });
    expect(created.key).toMatch(/^[a-zA-Z]{64}$/);
    expect(created).toMatchObject({ name: "deploy", start: created.key.slice(0, 6), referenceId: ada.id, enabled: true, expiresAt: null, requestCount: 0 });

    const listed = await ada.client.apiKey.list();
    expect(listed.data).toMatchObject({ total: 1, apiKeys: [{ id: created.id, name: "deploy", start: created.key.slice(0, 6) }] });
    expect(JSON.stringify(listed.data)).not.toContain(created.key);
    const fetched = await ada.client.apiKey.get({ query: { id: created.id } });
    expect(fetched.data).toMatchObject({ id: created.id, name: "deploy" });
    expect(fetched.data).not.toHaveProperty("key");
  });

  it("updates and deletes a key; a deleted key stops working at once", async () => {
    const ada = await signedUp(stack, "ada2@keys.example");
    const created = await newKey(ada, { name: "old" });
    expect((await ada.client.apiKey.update({ keyId: created.id, name: "renamed" })).data).toMatchObject({ name: "renamed" });
    expect((await ada.client.apiKey.update({ keyId: created.id })).error).toMatchObject({ status: 400, code: "NO_VALUES_TO_UPDATE" });
    expect((await withKey(created.key, "/get-session")).status).toBe(200);

    expect((await ada.client.apiKey.delete({ keyId: created.id })).data).toEqual({ success: true });
    expect((await ada.client.apiKey.list()).data?.total).toBe(0);
    const refused = await withKey(created.key, "/get-session");
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: "INVALID_API_KEY", message: "Invalid API key." });
  });

  it("refuses limits and permissions from a client, as the plugin does", async () => {
    const ada = await signedUp(stack, "ada3@keys.example");
    const refused = await ada.client.apiKey.create({ name: "greedy", rateLimitMax: 1_000_000 });
    expect(refused.error).toMatchObject({ status: 400, code: "SERVER_ONLY_PROPERTY" });
    expect((await ada.client.apiKey.create({ expiresIn: 60 })).error).toMatchObject({ status: 400, code: "EXPIRES_IN_IS_TOO_SMALL" });
    expect((await ada.client.apiKey.list()).data?.total).toBe(0);
  });

  it("is its user on get-session through the gateway, and moves lastRequest", async () => {
    const ada = await signedUp(stack, "ada4@keys.example");
    const created = await newKey(ada);
    const answer = await withKey(created.key, "/get-session");
    expect(answer.status).toBe(200);
    const session = (await answer.json()) as { user: { id: string; email: string }; session: { id: string; userId: string; token: string } };
    expect(session.user).toMatchObject({ id: ada.id, email: "ada4@keys.example" });
    expect(session.session).toMatchObject({ id: created.id, userId: ada.id, token: created.key });

    const first = (await ada.client.apiKey.get({ query: { id: created.id } })).data;
    expect(first).toMatchObject({ requestCount: 1 });
    expect(first?.lastRequest).not.toBeNull();
    await withKey(created.key, "/get-session");
    const second = (await ada.client.apiKey.get({ query: { id: created.id } })).data;
    expect(second?.requestCount).toBe(2);
    expect(new Date(second?.lastRequest ?? 0).getTime()).toBeGreaterThan(new Date(first?.lastRequest ?? 0).getTime());

    // A user's key is its user in the organization API too.
    await organizationOf(ada, "ada-works");
    const organizations = await withKey(created.key, "/organization/list");
    expect(await organizations.json()).toEqual([expect.objectContaining({ slug: "ada-works" })]);
  });

  it("refuses an expired key, a disabled key and a key with no uses left", async () => {
    const ada = await signedUp(stack, "ada5@keys.example");
    const expired = await newKey(ada, { name: "expired" });
    await setKey(expired.id, { expires_at: new Date(Date.now() - 1000) });
    const expiredAnswer = await withKey(expired.key, "/get-session");
    expect(expiredAnswer.status).toBe(401);
    expect(await expiredAnswer.json()).toMatchObject({ code: "KEY_EXPIRED", message: "API Key has expired" });

    const disabled = await newKey(ada, { name: "disabled" });
    expect((await ada.client.apiKey.update({ keyId: disabled.id, enabled: false })).data).toMatchObject({ enabled: false });
    const disabledAnswer = await withKey(disabled.key, "/get-session");
    expect(disabledAnswer.status).toBe(401);
    expect(await disabledAnswer.json()).toMatchObject({ code: "KEY_DISABLED", message: "API Key is disabled" });
    await ada.client.apiKey.update({ keyId: disabled.id, enabled: true });
    expect((await withKey(disabled.key, "/get-session")).status).toBe(200);

    const spent = await newKey(ada, { name: "spent" });
    await setKey(spent.id, { remaining: 1 });
    expect((await withKey(spent.key, "/get-session")).status).toBe(200);
    const spentAnswer = await withKey(spent.key, "/get-session");
    expect(spentAnswer.status).toBe(429);
    expect(await spentAnswer.json()).toMatchObject({ code: "USAGE_EXCEEDED", message: "API Key has reached its usage limit" });
  });

  it("refuses the call past the key's rate limit, and takes calls again after its window", async () => {
    const ada = await signedUp(stack, "ada6@keys.example");
    const created = await newKey(ada);
    for (let call = 0; call < RATE_LIMIT_MAX; call++) expect((await withKey(created.key, "/get-session")).status).toBe(200);
    const limited = await withKey(created.key, "/get-session");
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ code: "RATE_LIMITED", message: "Rate limit exceeded.", details: { tryAgainIn: expect.any(Number) as number } });
    await sleep(RATE_LIMIT_WINDOW_MS + 200);
    expect((await withKey(created.key, "/get-session")).status).toBe(200);
  });

  it("keeps a user's keys from everyone else", async () => {
    const ada = await signedUp(stack, "ada7@keys.example");
    const mallory = await signedUp(stack, "mallory@keys.example");
    const created = await newKey(ada, { name: "private" });
    expect((await mallory.client.apiKey.list()).data).toMatchObject({ total: 0, apiKeys: [] });
    expect((await mallory.client.apiKey.get({ query: { id: created.id } })).error).toMatchObject({ status: 404, code: "KEY_NOT_FOUND" });
    expect((await mallory.client.apiKey.delete({ keyId: created.id })).error).toMatchObject({ status: 404, code: "KEY_NOT_FOUND" });
    expect((await mallory.client.apiKey.update({ keyId: created.id, enabled: false })).error).toMatchObject({ status: 404, code: "KEY_NOT_FOUND" });
    expect((await withKey(created.key, "/get-session")).status).toBe(200);
  });

  it("gives an organization keys its owner makes, refuses them to a plain member, and lets them act for the organization", async () => {
    const owner = await signedUp(stack, "owner@org-keys.example");
    const member = await signedUp(stack, "member@org-keys.example");
    const outsider = await signedUp(stack, "outsider@org-keys.example");
    const organization = await organizationOf(owner, "keyed");
    const elsewhere = await organizationOf(outsider, "elsewhere");
    await join(owner, organization.id, member);

    const created = await newKey(owner, { name: "ci", organizationId: organization.id });
    expect(created).toMatchObject({ configId: "organization", referenceId: organization.id });
    expect((await owner.client.apiKey.list({ query: { organizationId: organization.id } })).data).toMatchObject({ total: 1, apiKeys: [{ id: created.id }] });
    expect((await owner.client.apiKey.list()).data?.total).toBe(0);

    const refused = await member.client.apiKey.create({ name: "mine", organizationId: organization.id });
    expect(refused.error).toMatchObject({ status: 403, code: "INSUFFICIENT_API_KEY_PERMISSIONS" });
    expect((await member.client.apiKey.list({ query: { organizationId: organization.id } })).error).toMatchObject({ status: 403, code: "INSUFFICIENT_API_KEY_PERMISSIONS" });
    expect((await member.client.apiKey.delete({ keyId: created.id })).error).toMatchObject({ status: 403, code: "INSUFFICIENT_API_KEY_PERMISSIONS" });
    expect((await outsider.client.apiKey.list({ query: { organizationId: organization.id } })).error).toMatchObject({ status: 403, code: "USER_NOT_MEMBER_OF_ORGANIZATION" });

    // The key acts for its organization, and is nobody: no user's session.
    const full = await withKey(created.key, "/organization/get-full-organization");
    expect(await full.json()).toMatchObject({ id: organization.id, slug: "keyed", invitations: [] });
    const other = await withKey(created.key, `/organization/get-full-organization?organizationId=${elsewhere.id}`);
    expect(other.status).toBe(403);
    expect(await (await withKey(created.key, "/get-session")).json()).toBeNull();
    expect((await withKey(created.key, "/organization/list")).status).toBe(401);

    expect((await owner.client.apiKey.delete({ keyId: created.id })).data).toEqual({ success: true });
    expect((await withKey(created.key, "/organization/get-full-organization")).status).toBe(401);
  });
});
