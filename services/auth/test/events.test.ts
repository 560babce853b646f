import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishedEvents } from "@tollgate/kit/testing";
import { startAuthStack, type AuthStack } from "../../../test/stacks/auth.js";

let stack: AuthStack;
const password = "correct horse battery staple";

beforeAll(async () => {
  stack = await startAuthStack({ SESSION_EXPIRES_IN_SECONDS: String(500 * 24 * 3600) });
});

afterAll(async () => {
  await stack?.stop();
});

const publishedSoFar = () => publishedEvents(stack.auth.context.bus);

describe("auth events", () => {
  it("announces users created, updated, banned and deleted, and sessions revoked", async () => {
    const user = stack.browser();
    const { data } = await user.client.signUp.email({ name: "Evented", email: "evented@example.com", password });
    const id = data?.user.id ?? "";
    await user.client.updateUser({ name: "Evented Again" });
    await user.client.signOut();
    await stack.auth.context.db("users").where({ id }).update({ role: "admin" });
    const admin = stack.browser();
    await admin.client.signIn.email({ email: "evented@example.com", password });
    const other = stack.browser();
    const created = await other.client.signUp.email({ name: "Target", email: "target@example.com", password });
    await admin.client.admin.banUser({ userId: created.data?.user.id ?? "", banReason: "test" });
    await admin.client.admin.removeUser({ userId: created.data?.user.id ?? "" });

    await expect
      .poll(async () => (await publishedSoFar()).map((event) => event.type), { timeout: 5_000 })
      .toEqual(["user.created", "user.updated", "session.revoked", "user.created", "user.updated", "session.revoked", "user.banned", "user.deleted"]);
    const events = await publishedSoFar();
    expect(events[0]).toMatchObject({ source: "auth", data: { id, email: "evented@example.com", name: "Evented", role: "user", email_verified: false } });
    expect(events[1]?.data).toMatchObject({ id, name: "Evented Again" });
    expect(events[2]?.data).toMatchObject({ user_id: id, sessions: [{ id: expect.any(String) as string, token_hash: expect.stringMatching(/^[0-9a-f]{64}$/) as string }] });
    expect(events[6]?.data).toEqual({ id: created.data?.user.id, reason: "test", expires_at: null });
  });

  it("caps the session cookie at 400 days, however long sessions last", async () => {
    const { client, jar } = stack.browser();
    await client.signUp.email({ name: "Long", email: "long.session@example.com", password });
    const cookie = (await jar.getCookies(stack.gateway.url)).find((c) => c.key === "better-auth.session_token");
    expect(cookie?.maxAge).toBe(400 * 24 * 3600);
  });
});
