import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnTypeScript, type Seen } from "@tollgate/kit/testing";
import { startAuthStack, type AuthStack, type Browser } from "./stack.js";

const password = "correct horse battery staple";
let stack: AuthStack;
let admin: Browser & { id: string };

async function member(email: string, name = email.split("@")[0] ?? email): Promise<Browser & { id: string }> {
  const browser = stack.browser();
  const { data } = await browser.client.signUp.email({ name, email, password });
  return { ...browser, id: data?.user.id ?? "" };
}

const db = () => stack.auth.context.db;

beforeAll(async () => {
  stack = await startAuthStack();
  admin = await member("admin@example.com", "Admin");
  await db()("users").where({ id: admin.id }).update({ role: "admin" });
});

afterAll(async () => {
  await stack?.stop();
});

describe("who may administer", () => {
  it("refuses ordinary users with the plugin's codes, and signed-out callers with 401", async () => {
    const user = await member("plain@example.com");
    expect((await user.client.admin.listUsers({ query: {} })).error).toMatchObject({ status: 403, code: "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS" });
    expect((await user.client.admin.banUser({ userId: admin.id })).error).toMatchObject({ status: 403, code: "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS" });
    expect((await user.client.admin.removeUser({ userId: admin.id })).error).toMatchObject({ status: 403, code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS" });
    expect((await stack.browser().client.admin.listUsers({ query: {} })).error?.status).toBe(401);
    expect((await user.client.admin.hasPermission({ permissions: { user: ["list"] } })).data).toEqual({ error: null, success: false });
    expect((await admin.client.admin.hasPermission({ permissions: { user: ["list"], session: ["revoke"] } })).data).toEqual({ error: null, success: true });
  });

  it("treats a user id in ADMIN_USER_IDS as an admin whatever the role", async () => {
    const other = await startAuthStack({ ADMIN_USER_IDS: "placeholder" });
    try {
      const boss = other.browser();
      const { data } = await boss.client.signUp.email({ name: "Boss", email: "boss@example.com", password });
      await other.auth.stop();
      const restarted = await startAuthStack({ ADMIN_USER_IDS: data?.user.id ?? "", DATABASE_URL: other.environment.databaseUrl });
      try {
        const again = restarted.browser();
        await again.client.signIn.email({ email: "boss@example.com", password });
        expect((await again.client.admin.listUsers({ query: {} })).data?.total).toBe(1);
      } finally {
        await restarted.stop();
      }
    } finally {
      await other.gateway.stop();
      other.echo.server.close();
    }
  });
});

describe("managing users", () => {
  it("searches, filters, sorts and pages the users with a total", async () => {
    for (const name of ["Zed Search", "Amy Search", "Bob Search"]) await member(`${name.split(" ")[0]?.toLowerCase()}.search@example.com`, name);
    const { data } = await admin.client.admin.listUsers({
      query: { searchValue: "Search", searchField: "name", sortBy: "name", sortDirection: "asc", limit: 2, offset: 0 },
    });
    expect(data?.total).toBe(3);
    expect(data?.users.map((user) => user.name)).toEqual(["Amy Search", "Bob Search"]);
    const second = await admin.client.admin.listUsers({ query: { searchValue: "search@", searchOperator: "contains", limit: 2, offset: 2, sortBy: "email" } });
    expect(second.data?.users.map((user) => user.email)).toEqual(["zed.search@example.com"]);
    const admins = await admin.client.admin.listUsers({ query: { filterField: "role", filterValue: "admin", filterOperator: "eq" } });
    expect(admins.data?.users.map((user) => user.email)).toEqual(["admin@example.com"]);
  });

  it("creates a user who can sign in, and refuses a taken address", async () => {
    const created = await admin.client.admin.createUser({ email: "Made@example.com", password, name: "Made", role: "user" });
    expect(created.data?.user).toMatchObject({ email: "made@example.com", role: "user" });
    expect((await stack.browser().client.signIn.email({ email: "made@example.com", password })).data).toBeTruthy();
    const again = await admin.client.admin.createUser({ email: "made@example.com", password, name: "Again" });
    expect(again.error).toMatchObject({ status: 400, code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL" });
  });

  it("sets roles, updates users and sets passwords", async () => {
    const user = await member("managed@example.com");
    expect((await admin.client.admin.setRole({ userId: user.id, role: "admin" })).data?.user.role).toBe("admin");
    expect((await admin.client.admin.setRole({ userId: user.id, role: "wizard" as "admin" })).error).toMatchObject({ code: "YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE" });
    const updated = await admin.client.admin.updateUser({ userId: user.id, data: { name: "Renamed" } });
    expect(updated.data).toMatchObject({ name: "Renamed" });
    expect((await admin.client.admin.updateUser({ userId: user.id, data: { password: "x" } })).error).toMatchObject({ code: "PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER" });
    expect((await admin.client.admin.setUserPassword({ userId: user.id, newPassword: "set by the admin" })).data).toEqual({ status: true });
    expect((await stack.browser().client.signIn.email({ email: "managed@example.com", password: "set by the admin" })).data).toBeTruthy();
  });

  it("removes a user, but never the admin themselves", async () => {
    const user = await member("removed@example.com");
    expect((await admin.client.admin.removeUser({ userId: admin.id })).error).toMatchObject({ code: "YOU_CANNOT_REMOVE_YOURSELF" });
    expect((await admin.client.admin.removeUser({ userId: user.id })).data).toEqual({ success: true });
    expect((await user.client.getSession()).data).toBeNull();
    expect((await stack.browser().client.signIn.email({ email: "removed@example.com", password })).error?.status).toBe(401);
  });
});

describe("bans", () => {
  const identityAtOrganization = async (browser: Browser) =>
    ((await (await browser.fetch(`${stack.gateway.url}/api/auth/organization/whoami`)).json()) as Seen).identity;

  it("ends a banned user's sessions everywhere and refuses their sign-in", async () => {
    const user = await member("banned@example.com");
    expect(await identityAtOrganization(user)).toMatchObject({ kind: "user" });
    expect((await admin.client.admin.banUser({ userId: admin.id })).error).toMatchObject({ code: "YOU_CANNOT_BAN_YOURSELF" });
    const banned = await admin.client.admin.banUser({ userId: user.id, banReason: "spam" });
    expect(banned.data?.user).toMatchObject({ banned: true, banReason: "spam", banExpires: null });
    await expect.poll(async () => (await user.client.getSession()).data, { timeout: 5_000 }).toBeNull();
    await expect.poll(() => identityAtOrganization(user), { timeout: 5_000 }).toEqual({ kind: "anonymous" });
    const signIn = await stack.browser().client.signIn.email({ email: "banned@example.com", password });
    expect(signIn.error).toMatchObject({
      status: 403,
      code: "BANNED_USER",
      message: "You have been banned from this application. Please contact support if you believe this is an error.",
    });
    await admin.client.admin.unbanUser({ userId: user.id });
    expect((await stack.browser().client.signIn.email({ email: "banned@example.com", password })).data).toBeTruthy();
  });

  it("lifts a ban once it has expired", async () => {
    const user = await member("briefly@example.com");
    await admin.client.admin.banUser({ userId: user.id, banExpiresIn: 60 });
    expect((await stack.browser().client.signIn.email({ email: "briefly@example.com", password })).error?.status).toBe(403);
    await db()("users").where({ id: user.id }).update({ ban_expires: new Date(Date.now() - 1000) });
    const signIn = await stack.browser().client.signIn.email({ email: "briefly@example.com", password });
    expect(signIn.data?.user).toMatchObject({ banned: false });
  });
});

describe("sessions of other users", () => {
  it("lists and revokes a user's sessions", async () => {
    const user = await member("watched@example.com");
    const { data } = await admin.client.admin.listUserSessions({ userId: user.id });
    expect(data?.sessions).toHaveLength(1);
    expect((await admin.client.admin.revokeUserSession({ sessionToken: data?.sessions[0]?.token ?? "" })).data).toEqual({ success: true });
    expect((await user.client.getSession()).data).toBeNull();
    await user.client.signIn.email({ email: "watched@example.com", password });
    expect((await admin.client.admin.revokeUserSessions({ userId: user.id })).data).toEqual({ success: true });
    expect((await user.client.getSession()).data).toBeNull();
  });
});

describe("impersonation", () => {
  it("acts as the user for an hour, marked as such, and returns to the admin", async () => {
    const user = await member("impersonated@example.com");
    const support = await member("support@example.com");
    await db()("users").where({ id: support.id }).update({ role: "admin" });
    await support.client.signIn.email({ email: "support@example.com", password });

    const started = await support.client.admin.impersonateUser({ userId: user.id });
    expect(started.data?.user.id).toBe(user.id);
    const { data } = await support.client.getSession();
    expect(data?.user.email).toBe("impersonated@example.com");
    expect(data?.session.impersonatedBy).toBe(support.id);
    const lasts = new Date(data?.session.expiresAt ?? 0).getTime() - Date.now();
    expect(lasts).toBeGreaterThan(3500_000);
    expect(lasts).toBeLessThanOrEqual(3600_000);
    // The user does not see the admin among their devices.
    expect((await user.client.listSessions()).data).toHaveLength(1);

    expect((await support.client.admin.impersonateUser({ userId: admin.id })).error).toMatchObject({ code: "YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS" });
    const stopped = await support.client.admin.stopImpersonating();
    expect(stopped.data?.user.id).toBe(support.id);
    const back = await support.client.getSession();
    expect(back.data?.user.email).toBe("support@example.com");
    expect(back.data?.session.impersonatedBy).toBeNull();
    expect((await support.client.admin.stopImpersonating()).error).toMatchObject({ status: 400, message: "You are not impersonating anyone" });
  });

  it("does not let an admin impersonate another admin", async () => {
    const second = await member("second.admin@example.com");
    await db()("users").where({ id: second.id }).update({ role: "admin" });
    expect((await admin.client.admin.impersonateUser({ userId: second.id })).error).toMatchObject({ status: 403, code: "YOU_CANNOT_IMPERSONATE_ADMINS" });
  });
});

describe("npm run admin", () => {
  const cli = fileURLToPath(new URL("../src/admin/cli.ts", import.meta.url));
  const run = (...args: string[]) =>
    spawnTypeScript(cli, { args, env: { DATABASE_URL: stack.environment.databaseUrl, NATS_PREFIX: stack.environment.natsPrefix } });

  it("grants and revokes the admin role by e-mail", async () => {
    const user = await member("first.admin@example.com");
    const granted = run("grant", "First.Admin@example.com");
    expect((await granted.exited).code).toBe(0);
    expect(granted.output().stdout).toContain("first.admin@example.com is now an admin");
    expect((await user.client.admin.listUsers({ query: { limit: 1 } })).data?.total).toBeGreaterThan(0);
    const revoked = run("revoke", "first.admin@example.com");
    expect((await revoked.exited).code).toBe(0);
    expect((await user.client.admin.listUsers({ query: {} })).error?.status).toBe(403);
  });

  it("says so when nobody has the address, or the arguments are wrong", async () => {
    const unknown = run("grant", "nobody@example.com");
    expect((await unknown.exited).code).toBe(1);
    expect(unknown.output().stderr).toContain("no user has the e-mail address nobody@example.com; they must sign up first");
    const usage = run("promote");
    expect((await usage.exited).code).toBe(64);
    expect(usage.output().stderr).toContain("usage: npm run admin -- grant <email> | revoke <email>");
  });
});
