import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeSessionCache } from "@tollgate/kit";
import { publishedEvents, type Seen } from "@tollgate/kit/testing";
import { PUBLIC_URL, ROOT_ADMIN, signInRootAdmin, startAuthStack, type AuthStack, type Browser } from "../../../test/stacks/auth.js";

const password = "correct horse battery staple";
const BANNED_MESSAGE = "You have been banned from this application. Please contact support if you believe this is an error.";

type Member = Browser & { id: string; email: string };

let stack: AuthStack;
/** Has the `admin` role. */
let admin: Member;
/** Has the `user` role, and is listed in ADMIN_USER_IDS. */
let root: Member;

const db = () => stack.auth.context.db;

async function member(email: string, name = "Member"): Promise<Member> {
  const browser = stack.browser();
  const { data } = await browser.client.signUp.email({ name, email, password });
  if (!data) throw new Error(`could not sign up ${email}`);
  return { ...browser, id: data.user.id, email };
}

async function memberWithRole(email: string, role: string): Promise<Member> {
  const made = await member(email);
  await db()("users").where({ id: made.id }).update({ role });
  return made;
}

/** What a service behind the gateway is told about the caller (the stack's echo stands in for organization). */
async function identityAtOrganization(browser: Browser): Promise<unknown> {
  const response = await browser.fetch(`${stack.gateway.url}/api/auth/organization/whoami`);
  return ((await response.json()) as Seen).identity;
}

const cookie = async (browser: Browser, name: string) => (await browser.jar.getCookies(stack.gateway.url)).find((c) => c.key === `better-auth.${name}`);

/** The events published so far about a user, oldest first. */
async function eventsAbout(id: string) {
  return (await publishedEvents(stack.auth.context.bus)).filter((event) => {
    const data = event.data as { id?: string; user_id?: string };
    return data.id === id || data.user_id === id;
  });
}

const eventData = async (type: string, id: string) => (await eventsAbout(id)).filter((event) => event.type === type).map((event) => event.data);

type ListUsersQuery = NonNullable<Parameters<Browser["client"]["admin"]["listUsers"]>[0]>["query"];

beforeAll(async () => {
  stack = await startAuthStack({ ADMIN_USER_IDS: ROOT_ADMIN.id });
  admin = await memberWithRole("admin@example.com", "admin");
  root = await signInRootAdmin(stack);
});

afterAll(async () => {
  await stack?.stop();
});

describe("who may administer", () => {
  it("refuses every admin action to a user without the admin role, with the plugin's code, changing nothing", async () => {
    const plain = await member("plain@example.com");
    const target = await member("untouched@example.com");
    const { client } = plain;
    const refusals: [string, string, () => Promise<{ error: unknown }>][] = [
      ["YOU_ARE_NOT_ALLOWED_TO_LIST_USERS", "You are not allowed to list users", () => client.admin.listUsers({ query: {} })],
      ["YOU_ARE_NOT_ALLOWED_TO_GET_USER", "You are not allowed to get user", () => client.admin.getUser({ query: { id: target.id } })],
      ["YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS", "You are not allowed to create users", () => client.admin.createUser({ email: "sneaky@example.com", password, name: "Sneaky" })],
      ["YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS", "You are not allowed to update users", () => client.admin.updateUser({ userId: target.id, data: { name: "Changed" } })],
      ["YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE", "You are not allowed to change users role", () => client.admin.setRole({ userId: plain.id, role: "admin" })],
      ["YOU_ARE_NOT_ALLOWED_TO_BAN_USERS", "You are not allowed to ban users", () => client.admin.banUser({ userId: target.id })],
      ["YOU_ARE_NOT_ALLOWED_TO_BAN_USERS", "You are not allowed to ban users", () => client.admin.unbanUser({ userId: target.id })],
      ["YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS", "You are not allowed to impersonate users", () => client.admin.impersonateUser({ userId: target.id })],
      ["YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS", "You are not allowed to list users sessions", () => client.admin.listUserSessions({ userId: target.id })],
      ["YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS", "You are not allowed to revoke users sessions", () => client.admin.revokeUserSession({ sessionToken: "x" })],
      ["YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS", "You are not allowed to revoke users sessions", () => client.admin.revokeUserSessions({ userId: target.id })],
      ["YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS", "You are not allowed to delete users", () => client.admin.removeUser({ userId: target.id })],
      ["YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD", "You are not allowed to set users password", () => client.admin.setUserPassword({ userId: target.id, newPassword: "hijacked password" })],
    ];
    for (const [code, message, call] of refusals) expect((await call()).error, code).toMatchObject({ status: 403, code, message });

    const after = await db()("users").where({ id: target.id }).first<{ name: string; banned: boolean } | undefined>();
    expect(after).toMatchObject({ name: "Member", banned: false });
    expect((await db()("users").where({ id: plain.id }).first<{ role: string }>()).role).toBe("user");
    expect(await db()("users").where({ email: "sneaky@example.com" }).first()).toBeUndefined();
    expect(await identityAtOrganization(target)).toMatchObject({ kind: "user", user_id: target.id });
    expect((await stack.browser().client.signIn.email({ email: "untouched@example.com", password })).data).toBeTruthy();
  });

  it("answers 401 to a caller who is not signed in", async () => {
    const { client } = stack.browser();
    const calls: [string, () => Promise<{ error: unknown }>][] = [
      ["list-users", () => client.admin.listUsers({ query: {} })],
      ["create-user", () => client.admin.createUser({ email: "anon@example.com", password, name: "Anon" })],
      ["ban-user", () => client.admin.banUser({ userId: admin.id })],
      ["impersonate-user", () => client.admin.impersonateUser({ userId: admin.id })],
      ["stop-impersonating", () => client.admin.stopImpersonating()],
      ["remove-user", () => client.admin.removeUser({ userId: admin.id })],
      ["has-permission", () => client.admin.hasPermission({ permissions: { user: ["list"] } })],
    ];
    for (const [path, call] of calls) expect((await call()).error, path).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
  });

  it("counts any one of a user's comma-separated roles, and grants nothing for an unknown role", async () => {
    const both = await memberWithRole("both.roles@example.com", "user,admin");
    const wizard = await memberWithRole("wizard@example.com", "wizard");
    expect((await both.client.admin.listUsers({ query: { limit: 1 } })).data?.total).toBeGreaterThan(1);
    expect((await wizard.client.admin.listUsers({ query: {} })).error).toMatchObject({ status: 403, code: "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS" });
  });

  it("treats a user id in ADMIN_USER_IDS as an admin whatever the role", async () => {
    expect((await db()("users").where({ id: root.id }).first<{ role: string }>()).role).toBe("user");
    expect((await root.client.admin.listUsers({ query: { limit: 1 } })).data?.users).toHaveLength(1);
    expect((await root.client.admin.hasPermission({ permissions: { user: ["impersonate-admins"] } })).data).toEqual({ error: null, success: true });
    expect((await admin.client.admin.hasPermission({ permissions: { user: ["impersonate-admins"] } })).data).toEqual({ error: null, success: false });
  });

  it("checks permissions as better-auth's access control does", async () => {
    const plain = await member("checked@example.com");
    const check = async (browser: Browser, permissions: Record<string, string[]>) => (await browser.client.admin.hasPermission({ permissions })).data?.success;
    expect(await check(admin, { user: ["list", "ban", "set-password"], session: ["revoke", "delete"] })).toBe(true);
    expect(await check(admin, { user: ["list", "launch-rockets"] })).toBe(false);
    expect(await check(admin, { billing: ["list"] })).toBe(false);
    expect(await check(admin, { user: [] })).toBe(false);
    expect(await check(admin, {})).toBe(false);
    expect(await check(plain, { user: ["list"] })).toBe(false);
    expect(await check(plain, { user: [] })).toBe(false);
    // Names that exist on every JavaScript object are neither resources nor roles.
    expect(await check(admin, { constructor: ["name"] })).toBe(false);

    // The client's types allow only `permissions`; better-auth's schema takes `permission` too, then refuses it.
    const post = async (body: unknown) => {
      const response = await admin.fetch(`${stack.gateway.url}/api/auth/admin/has-permission`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: PUBLIC_URL },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    };
    expect(await post({ permission: { user: ["list"] } })).toEqual({
      status: 400,
      body: { code: "BAD_REQUEST", message: "invalid permission check. no permission(s) were passed." },
    });
    expect(await post({ permission: { user: ["list"] }, permissions: { user: ["list"] } })).toMatchObject({ status: 400, body: { code: "VALIDATION_ERROR" } });
    expect(await post({})).toMatchObject({ status: 400, body: { code: "VALIDATION_ERROR" } });
  });
});

describe("listing users", () => {
  const names = ["Lister Dora", "Lister Bob", "Lister Cyd", "Lister Abe"];
  let listed: Member[];

  beforeAll(async () => {
    listed = [];
    for (const name of names) listed.push(await member(`${name.split(" ")[1]?.toLowerCase()}@list.example`, name));
  });

  const list = async (query: ListUsersQuery) => {
    const { data, error } = await admin.client.admin.listUsers({ query });
    if (!data) throw new Error(`list-users failed: ${JSON.stringify(error)}`);
    return data;
  };
  const namesOf = (data: { users: { name: string }[] }) => data.users.map((user) => user.name);

  it("searches e-mail by default, or the name, from the start, the end or anywhere, case-sensitively", async () => {
    expect(namesOf(await list({ searchValue: "@list.example", sortBy: "name" }))).toEqual(["Lister Abe", "Lister Bob", "Lister Cyd", "Lister Dora"]);
    expect((await list({ searchValue: "Lister", searchField: "name", searchOperator: "starts_with" })).total).toBe(4);
    expect(namesOf(await list({ searchValue: "ora", searchField: "name", searchOperator: "ends_with" }))).toEqual(["Lister Dora"]);
    expect((await list({ searchValue: "ister", searchField: "name", searchOperator: "starts_with" })).total).toBe(0);
    expect((await list({ searchValue: "lister", searchField: "name" })).total).toBe(0);
  });

  it("matches % and _ in the searched text literally", async () => {
    expect((await list({ searchValue: "%", searchField: "name" })).total).toBe(0);
    expect((await list({ searchValue: "b_b", searchField: "email" })).total).toBe(0);
  });

  it("sorts, pages and counts every match, echoing limit and offset as better-auth does", async () => {
    const page = await list({ searchValue: "@list.example", sortBy: "name", sortDirection: "desc", limit: 2, offset: 1 });
    expect(page).toMatchObject({ total: 4, limit: 2, offset: 1 });
    expect(namesOf(page)).toEqual(["Lister Cyd", "Lister Bob"]);
    const everything = await list({ searchValue: "@list.example" });
    expect(everything.users).toHaveLength(4);
    expect(Object.keys(everything).sort()).toEqual(["total", "users"]);
    // better-auth reads limit 0 as no limit.
    expect((await list({ searchValue: "@list.example", limit: 0 })).users).toHaveLength(4);
  });

  it("filters by any user field with better-auth's operators", async () => {
    const [dora, bob, cyd] = listed;
    await db()("users").where({ id: bob?.id }).update({ email_verified: true });
    const emails = async (query: ListUsersQuery) =>
      (await list({ searchValue: "@list.example", sortBy: "email", ...query })).users.map((user) => user.email);

    expect(await emails({ filterField: "emailVerified", filterValue: true })).toEqual(["bob@list.example"]);
    expect(await emails({ filterField: "emailVerified", filterValue: "false", filterOperator: "eq" })).toEqual(["abe@list.example", "cyd@list.example", "dora@list.example"]);
    expect(await emails({ filterField: "name", filterValue: "Lister Bob", filterOperator: "ne" })).toEqual(["abe@list.example", "cyd@list.example", "dora@list.example"]);
    expect(await emails({ filterField: "name", filterValue: ["Lister Bob", "Lister Dora"], filterOperator: "in" })).toEqual(["bob@list.example", "dora@list.example"]);
    expect(await emails({ filterField: "name", filterValue: ["Lister Cyd"], filterOperator: "in" })).toEqual(["cyd@list.example"]);
    expect(await emails({ filterField: "name", filterValue: ["Lister Bob", "Lister Dora"], filterOperator: "not_in" })).toEqual(["abe@list.example", "cyd@list.example"]);
    expect(await emails({ filterField: "name", filterValue: "er D", filterOperator: "contains" })).toEqual(["dora@list.example"]);
    expect(await emails({ filterValue: "cyd@list.example" })).toEqual(["cyd@list.example"]);
    const cydCreated = (await admin.client.admin.getUser({ query: { id: cyd?.id ?? "" } })).data?.createdAt;
    expect(await emails({ filterField: "createdAt", filterValue: new Date(cydCreated ?? 0).toISOString(), filterOperator: "gte" })).toEqual([
      "abe@list.example",
      "cyd@list.example",
    ]);
    expect(await emails({ filterField: "createdAt", filterValue: new Date(cydCreated ?? 0).toISOString(), filterOperator: "lt" })).toEqual([
      "bob@list.example",
      "dora@list.example",
    ]);
    expect(dora).toBeDefined();
    const admins = await list({ filterField: "role", filterValue: "admin" });
    expect(admins.users.map((user) => user.email)).toContain("admin@example.com");
    expect(admins.users.every((user) => user.role === "admin")).toBe(true);
  });

  it("answers an empty list, not an error, for a query better-auth's database would refuse", async () => {
    const refused: ListUsersQuery[] = [
      { sortBy: "favouriteColour" },
      { filterField: "favouriteColour", filterValue: "blue" },
      { filterField: "createdAt", filterValue: "not a date", filterOperator: "gt" },
      { filterField: "banned", filterValue: "true", filterOperator: "contains" },
      { limit: -1 },
    ];
    for (const query of refused) {
      const { data, error } = await admin.client.admin.listUsers({ query });
      expect(error, JSON.stringify(query)).toBeNull();
      expect(data, JSON.stringify(query)).toEqual({ users: [], total: 0 });
    }
  });
});

describe("managing users", () => {
  it("gets a user by id", async () => {
    const user = await member("got@example.com", "Got");
    expect((await admin.client.admin.getUser({ query: { id: user.id } })).data).toMatchObject({ id: user.id, email: "got@example.com", name: "Got", role: "user" });
    expect((await admin.client.admin.getUser({ query: { id: "no-such-user" } })).error).toMatchObject({ status: 404, code: "USER_NOT_FOUND" });
  });

  it("creates a user with roles and extra fields, who can sign in, and announces it", async () => {
    const created = await admin.client.admin.createUser({
      email: "Made@Example.com",
      password,
      name: "Made",
      role: ["user", "admin"],
      data: { emailVerified: true, username: "Made_By_Admin", displayUsername: "Made_By_Admin", image: "https://example.com/made.png", favouriteColour: "blue" },
    });
    expect(created.data?.user).toMatchObject({
      email: "made@example.com",
      name: "Made",
      role: "user,admin",
      emailVerified: true,
      username: "made_by_admin",
      displayUsername: "Made_By_Admin",
      image: "https://example.com/made.png",
      banned: false,
    });
    const id = created.data?.user.id ?? "";
    const signIn = await stack.browser().client.signIn.email({ email: "made@example.com", password });
    expect(signIn.data?.user.id).toBe(id);
    await expect.poll(() => eventData("user.created", id), { timeout: 5_000 }).toEqual([
      { id, email: "made@example.com", name: "Made", email_verified: true, username: "made_by_admin", role: "user,admin" },
    ]);

    const plain = await admin.client.admin.createUser({ email: "plain.made@example.com", password, name: "Plain", data: { role: "admin" } });
    expect(plain.data?.user.role).toBe("admin");
    expect((await admin.client.admin.createUser({ email: "default.role@example.com", password, name: "Default" })).data?.user.role).toBe("user");
  });

  it("creates a user without a password, who can sign in only once one is set", async () => {
    const created = await admin.client.admin.createUser({ email: "passwordless@example.com", name: "Passwordless" });
    const id = created.data?.user.id ?? "";
    expect((await stack.browser().client.signIn.email({ email: "passwordless@example.com", password })).error?.status).toBe(401);
    expect((await admin.client.admin.setUserPassword({ userId: id, newPassword: password })).data).toEqual({ status: true });
    expect((await stack.browser().client.signIn.email({ email: "passwordless@example.com", password })).data?.user.id).toBe(id);
  });

  it("refuses to create a user with a bad address, a taken one, a bad role or an overlong password", async () => {
    const create = (body: Parameters<typeof admin.client.admin.createUser>[0]) => admin.client.admin.createUser(body);
    expect((await create({ email: "not-an-address", password, name: "X" })).error).toMatchObject({ status: 400, code: "INVALID_EMAIL", message: "Invalid email" });
    expect((await create({ email: "ADMIN@example.com", password, name: "X" })).error).toMatchObject({
      status: 400,
      code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL",
      message: "User already exists. Use another email.",
    });
    expect((await create({ email: "wizard.made@example.com", password, name: "X", role: "wizard" as "user" })).error).toMatchObject({
      status: 400,
      code: "YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE",
    });
    expect((await create({ email: "typed.made@example.com", password, name: "X", data: { role: 5 } })).error).toMatchObject({
      status: 400,
      code: "INVALID_ROLE_TYPE",
      message: "Invalid role type",
    });
    expect((await create({ email: "long.made@example.com", password: "x".repeat(129), name: "X" })).error).toMatchObject({ status: 400, code: "PASSWORD_TOO_LONG" });
    expect((await create({ email: "taken.username@example.com", password, name: "X", data: { username: "made_by_admin" } })).error).toMatchObject({
      status: 400,
      code: "USERNAME_IS_ALREADY_TAKEN",
    });
    const made = await db()("users").whereIn("email", ["wizard.made@example.com", "typed.made@example.com", "long.made@example.com", "taken.username@example.com"]);
    expect(made).toEqual([]);
  });

  it("updates a user and answers with the user itself", async () => {
    const user = await member("updated@example.com", "Before");
    const updated = await admin.client.admin.updateUser({ userId: user.id, data: { name: "After", email: "Moved@Example.com", emailVerified: true, favouriteColour: "blue" } });
    expect(updated.data).toMatchObject({ id: user.id, name: "After", email: "moved@example.com", emailVerified: true });
    await expect
      .poll(async () => (await eventData("user.updated", user.id)).at(-1), { timeout: 5_000 })
      .toMatchObject({ id: user.id, name: "After", email: "moved@example.com", email_verified: true });
    expect((await admin.client.admin.updateUser({ userId: user.id, data: { role: ["admin", "user"] } })).data).toMatchObject({ role: "admin,user" });
  });

  it("refuses update-user's forbidden and invalid changes", async () => {
    const user = await member("guarded@example.com", "Guarded");
    const update = (data: Record<string, unknown>, userId = user.id) => admin.client.admin.updateUser({ userId, data });
    expect((await update({})).error).toMatchObject({ status: 400, code: "NO_DATA_TO_UPDATE", message: "No data to update" });
    expect((await update({ password: "x" })).error).toMatchObject({ status: 400, code: "PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER" });
    expect((await update({ id: "another-id" })).error).toMatchObject({ status: 400, code: "USER_ID_CANNOT_BE_UPDATED", message: "User id cannot be updated" });
    expect((await update({ email: "not-an-address" })).error).toMatchObject({ status: 400, code: "INVALID_EMAIL" });
    expect((await update({ email: "admin@example.com" })).error).toMatchObject({ status: 400, code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL" });
    expect((await update({ role: "wizard" })).error).toMatchObject({ status: 400, code: "YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE" });
    expect((await update({ role: [true] })).error).toMatchObject({ status: 400, code: "INVALID_ROLE_TYPE" });
    expect((await update({ banned: true }, admin.id)).error).toMatchObject({ status: 400, code: "YOU_CANNOT_BAN_YOURSELF" });
    expect((await update({ name: "Nobody" }, "no-such-user")).error).toMatchObject({ status: 404, code: "USER_NOT_FOUND" });
    expect(await db()("users").where({ id: user.id }).first()).toMatchObject({ name: "Guarded", email: "guarded@example.com", role: "user", banned: false });
  });

  it("sets roles, which take effect at once", async () => {
    const user = await member("promoted@example.com");
    expect((await user.client.admin.listUsers({ query: {} })).error?.status).toBe(403);
    expect((await admin.client.admin.setRole({ userId: user.id, role: "admin" })).data?.user).toMatchObject({ id: user.id, role: "admin" });
    expect((await user.client.admin.listUsers({ query: {} })).data?.total).toBeGreaterThan(0);
    // Another admin's role is for a root admin (ADMIN_USER_IDS) to change: demoted, they could be taken over.
    expect((await admin.client.admin.setRole({ userId: user.id, role: ["user", "admin"] })).error).toMatchObject({ status: 403, code: "YOU_CANNOT_CHANGE_ADMINS_ROLE" });
    expect((await root.client.admin.setRole({ userId: user.id, role: ["user", "admin"] })).data?.user.role).toBe("user,admin");
    expect((await admin.client.admin.setRole({ userId: user.id, role: "wizard" as "admin" })).error).toMatchObject({
      status: 400,
      code: "YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE",
      message: "You are not allowed to set a non-existent role value",
    });
    expect((await admin.client.admin.setRole({ userId: user.id, role: "toString" as "admin" })).error?.status).toBe(400);
    expect((await admin.client.admin.setRole({ userId: "no-such-user", role: "admin" })).error).toMatchObject({ status: 404, code: "USER_NOT_FOUND" });
    await root.client.admin.setRole({ userId: user.id, role: "user" });
    expect((await user.client.admin.listUsers({ query: {} })).error?.status).toBe(403);
  });

  it("sets a user's password within the password policy", async () => {
    const user = await member("reset.by.admin@example.com");
    const set = (newPassword: string, userId = user.id) => admin.client.admin.setUserPassword({ userId, newPassword });
    expect((await set("short")).error).toMatchObject({ status: 400, code: "PASSWORD_TOO_SHORT" });
    expect((await set("")).error).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    expect((await set("set by the admin", "no-such-user")).error).toMatchObject({ status: 404, code: "USER_NOT_FOUND" });
    expect((await set("set by the admin")).data).toEqual({ status: true });
    expect((await stack.browser().client.signIn.email({ email: "reset.by.admin@example.com", password })).error?.status).toBe(401);
    expect((await stack.browser().client.signIn.email({ email: "reset.by.admin@example.com", password: "set by the admin" })).data).toBeTruthy();
  });

  it("sets an admin's password only for themselves or an admin who may impersonate admins", async () => {
    const other = await memberWithRole("other.admin.password@example.com", "user,admin");
    expect((await admin.client.admin.setUserPassword({ userId: other.id, newPassword: "set by a peer" })).error).toMatchObject({
      status: 403,
      code: "YOU_CANNOT_SET_ADMINS_PASSWORD",
      message: "You cannot set another admin's password",
    });
    expect((await admin.client.admin.setUserPassword({ userId: root.id, newPassword: "set by a peer" })).error).toMatchObject({ status: 403, code: "YOU_CANNOT_SET_ADMINS_PASSWORD" });
    expect((await other.client.admin.setUserPassword({ userId: other.id, newPassword: "set by myself" })).data).toEqual({ status: true });
    expect((await root.client.admin.setUserPassword({ userId: other.id, newPassword: "set by the root admin" })).data).toEqual({ status: true });
    expect((await stack.browser().client.signIn.email({ email: other.email, password: "set by the root admin" })).data?.user.id).toBe(other.id);
  });

  it("changes an admin's address only for themselves or an admin who may impersonate admins", async () => {
    const other = await memberWithRole("other.admin.email@example.com", "admin");
    expect((await admin.client.admin.updateUser({ userId: other.id, data: { email: "peer.mailbox@example.com", name: "Renamed" } })).error).toMatchObject({
      status: 403,
      code: "YOU_CANNOT_SET_ADMINS_EMAIL",
      message: "You cannot change another admin's email",
    });
    expect(await db()("users").where({ id: other.id }).first()).toMatchObject({ email: "other.admin.email@example.com", name: "Member" });
    // Everything else about another admin is still an admin's to change.
    expect((await admin.client.admin.updateUser({ userId: other.id, data: { name: "Renamed" } })).data).toMatchObject({ name: "Renamed" });
    expect((await root.client.admin.updateUser({ userId: other.id, data: { email: "moved.by.root@example.com" } })).data).toMatchObject({ email: "moved.by.root@example.com" });
  });

  it("removes a user, whose sessions stop working at once, but never the admin themselves", async () => {
    const user = await member("removed@example.com");
    expect(await identityAtOrganization(user)).toMatchObject({ kind: "user", user_id: user.id });
    expect((await admin.client.admin.removeUser({ userId: admin.id })).error).toMatchObject({ status: 400, code: "YOU_CANNOT_REMOVE_YOURSELF" });
    expect((await admin.client.admin.removeUser({ userId: "no-such-user" })).error).toMatchObject({ status: 404, code: "USER_NOT_FOUND" });
    expect((await admin.client.admin.removeUser({ userId: user.id })).data).toEqual({ success: true });
    await expect.poll(() => identityAtOrganization(user), { timeout: 5_000 }).toEqual({ kind: "anonymous" });
    expect((await stack.browser().client.signIn.email({ email: "removed@example.com", password })).error?.status).toBe(401);
    await expect.poll(() => eventData("user.deleted", user.id), { timeout: 5_000 }).toEqual([{ id: user.id }]);
  });
});

describe("bans", () => {
  it("ends a banned user's sessions everywhere, even cached by the gateway, and refuses their sign-in", async () => {
    const user = await member("banned@example.com");
    const phone = stack.browser();
    await phone.client.signIn.email({ email: "banned@example.com", password });
    // Both sessions are in the gateway's cache now, which would otherwise trust them for 30 s.
    expect(await identityAtOrganization(user)).toMatchObject({ kind: "user", user_id: user.id });
    expect(await identityAtOrganization(phone)).toMatchObject({ kind: "user", user_id: user.id });

    const banned = await admin.client.admin.banUser({ userId: user.id, banReason: "spam" });
    expect(banned.data?.user).toMatchObject({ id: user.id, banned: true, banReason: "spam", banExpires: null });
    await expect.poll(() => identityAtOrganization(user), { timeout: 5_000 }).toEqual({ kind: "anonymous" });
    await expect.poll(() => identityAtOrganization(phone), { timeout: 5_000 }).toEqual({ kind: "anonymous" });
    expect((await user.client.getSession()).data).toBeNull();
    expect(await db()("sessions").where({ user_id: user.id })).toEqual([]);

    const signIn = await stack.browser().client.signIn.email({ email: "banned@example.com", password });
    expect(signIn.error).toMatchObject({ status: 403, code: "BANNED_USER", message: BANNED_MESSAGE });
    // In the order they were written, in the ban's own transaction.
    await expect
      .poll(async () => (await eventsAbout(user.id)).map((event) => event.type), { timeout: 5_000 })
      .toEqual(["user.created", "user.updated", "session.revoked", "user.banned"]);
    expect(await eventData("user.banned", user.id)).toEqual([{ id: user.id, reason: "spam", expires_at: null }]);

    const unbanned = await admin.client.admin.unbanUser({ userId: user.id });
    expect(unbanned.data?.user).toMatchObject({ banned: false, banReason: null, banExpires: null });
    expect((await stack.browser().client.signIn.email({ email: "banned@example.com", password })).data?.user.id).toBe(user.id);
  });

  it("bans for a while, with better-auth's default reason, and lifts the ban once it expires", async () => {
    const user = await member("briefly@example.com");
    const before = Date.now();
    const banned = await admin.client.admin.banUser({ userId: user.id, banExpiresIn: 2 });
    expect(banned.data?.user.banReason).toBe("No reason");
    const expires = new Date(banned.data?.user.banExpires ?? 0).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + 2_000);
    expect(expires).toBeLessThan(Date.now() + 2_000);
    await expect
      .poll(() => eventData("user.banned", user.id), { timeout: 5_000 })
      .toEqual([{ id: user.id, reason: "No reason", expires_at: new Date(expires).toISOString() }]);

    const signIn = () => stack.browser().client.signIn.email({ email: "briefly@example.com", password });
    expect((await signIn()).error).toMatchObject({ status: 403, code: "BANNED_USER" });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expires - Date.now() + 50)));
    const after = await signIn();
    expect(after.data?.user).toMatchObject({ id: user.id, banned: false, banReason: null, banExpires: null });
  });

  it("refuses to ban oneself or nobody, and lets update-user ban too", async () => {
    expect((await admin.client.admin.banUser({ userId: admin.id })).error).toMatchObject({ status: 400, code: "YOU_CANNOT_BAN_YOURSELF", message: "You cannot ban yourself" });
    expect((await admin.client.admin.banUser({ userId: "no-such-user" })).error).toMatchObject({ status: 404, code: "USER_NOT_FOUND" });
    const user = await member("banned.by.update@example.com");
    expect(await identityAtOrganization(user)).toMatchObject({ kind: "user" });
    expect((await admin.client.admin.updateUser({ userId: user.id, data: { banned: true, banReason: "by update" } })).data).toMatchObject({ banned: true, banReason: "by update" });
    await expect.poll(() => identityAtOrganization(user), { timeout: 5_000 }).toEqual({ kind: "anonymous" });
    expect((await stack.browser().client.signIn.email({ email: "banned.by.update@example.com", password })).error).toMatchObject({ status: 403, code: "BANNED_USER" });
  });

  it("takes update-user's banExpires as the timestamp its description says, and refuses other text", async () => {
    const user = await member("ban.until@example.com");
    const until = new Date(Date.now() + 86_400_000);
    expect((await admin.client.admin.updateUser({ userId: user.id, data: { banned: true, banExpires: until } })).data).toMatchObject({ banned: true, banExpires: until });
    expect((await admin.client.admin.updateUser({ userId: user.id, data: { banExpires: "next tuesday" } })).error).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    const document = (await (await fetch(`${stack.gateway.url}/api/auth/openapi.json`)).json()) as {
      paths: Record<string, { post: { requestBody: { content: { "application/json": { schema: { properties: { data: { properties: { banExpires: { anyOf?: { format?: string }[] } } } } } } } } } }>;
    };
    const described = document.paths["/api/auth/admin/update-user"]?.post.requestBody.content["application/json"].schema.properties.data.properties.banExpires;
    expect(described?.anyOf?.map((branch) => branch.format)).toEqual(["date-time", undefined]);
  });
});

describe("sessions of other users", () => {
  it("lists a user's sessions without giving away their tokens, and revokes one or all of them", async () => {
    const laptop = await member("watched@example.com");
    const phone = stack.browser();
    const phoneToken = (await phone.client.signIn.email({ email: "watched@example.com", password })).data?.token ?? "";
    const tablet = stack.browser();
    const tabletToken = (await tablet.client.signIn.email({ email: "watched@example.com", password })).data?.token ?? "";
    for (const device of [laptop, phone, tablet]) expect(await identityAtOrganization(device)).toMatchObject({ kind: "user" });

    const { data } = await admin.client.admin.listUserSessions({ userId: laptop.id });
    expect(data?.sessions).toHaveLength(3);
    expect(data?.sessions.every((session) => session.userId === laptop.id && session.impersonatedBy === null)).toBe(true);
    expect(data?.sessions.map((session) => session.token)).not.toContain(phoneToken);
    const phoneId = (await phone.client.getSession()).data?.session.id;
    const phoneEntry = data?.sessions.find((session) => session.id === phoneId);

    expect((await admin.client.admin.revokeUserSession({ sessionToken: phoneEntry?.token ?? "" })).data).toEqual({ success: true });
    await expect.poll(() => identityAtOrganization(phone), { timeout: 5_000 }).toEqual({ kind: "anonymous" });
    expect(await identityAtOrganization(laptop)).toMatchObject({ kind: "user" });
    // The token as the user holds it works too.
    expect((await admin.client.admin.revokeUserSession({ sessionToken: tabletToken })).data).toEqual({ success: true });
    await expect.poll(() => identityAtOrganization(tablet), { timeout: 5_000 }).toEqual({ kind: "anonymous" });
    expect((await admin.client.admin.revokeUserSession({ sessionToken: "no-such-token" })).data).toEqual({ success: true });

    expect((await admin.client.admin.revokeUserSessions({ userId: laptop.id })).data).toEqual({ success: true });
    await expect.poll(() => identityAtOrganization(laptop), { timeout: 5_000 }).toEqual({ kind: "anonymous" });
    expect((await admin.client.admin.listUserSessions({ userId: laptop.id })).data).toEqual({ sessions: [] });
  });
});

describe("impersonation", () => {
  it("acts as the user for an hour, marked as such, then returns to the admin's own session", async () => {
    const user = await member("impersonated@example.com", "Impersonated");
    const support = await memberWithRole("support@example.com", "admin");
    const own = (await support.client.getSession()).data?.session;
    // Set by the organization service in a real deployment; it must survive the detour.
    await db()("sessions").where({ id: own?.id }).update({ active_organization_id: "org-of-support" });
    const ownCookie = await support.jar.getCookieString(stack.gateway.url);
    expect(await identityAtOrganization(support)).toEqual({ kind: "user", user_id: support.id, session_id: own?.id });

    const started = await support.client.admin.impersonateUser({ userId: user.id });
    expect(started.data?.user).toMatchObject({ id: user.id, email: "impersonated@example.com" });
    expect(started.data?.session).toMatchObject({ userId: user.id, impersonatedBy: support.id });
    const acting = (await support.client.getSession()).data;
    expect(acting?.user.id).toBe(user.id);
    expect(acting?.session).toMatchObject({ id: started.data?.session.id, impersonatedBy: support.id, activeOrganizationId: null });
    const lasts = new Date(acting?.session.expiresAt ?? 0).getTime() - Date.now();
    expect(lasts).toBeGreaterThan(3_590_000);
    expect(lasts).toBeLessThanOrEqual(3_600_000);
    // Like better-auth, the impersonation cookie ends with the browser session.
    expect((await cookie(support, "session_token"))?.maxAge).toBeNull();
    expect(await cookie(support, "dont_remember")).toBeDefined();
    expect(await identityAtOrganization(support)).toEqual({ kind: "user", user_id: user.id, session_id: acting?.session.id });

    // The user does not see the admin among their devices; admins do.
    expect((await user.client.listSessions()).data?.map((session) => session.id)).not.toContain(acting?.session.id);
    const listed = await admin.client.admin.listUserSessions({ userId: user.id });
    expect(listed.data?.sessions.find((session) => session.id === acting?.session.id)?.impersonatedBy).toBe(support.id);

    const impersonationCookie = await support.jar.getCookieString(stack.gateway.url);
    const stopped = await support.client.admin.stopImpersonating();
    expect(stopped.data?.user).toMatchObject({ id: support.id, email: "support@example.com" });
    expect(stopped.data?.session).toMatchObject({ id: own?.id, userId: support.id, impersonatedBy: null });
    // The same session as before, under a new token: the old one cannot be recovered from its digest.
    const back = (await support.client.getSession()).data;
    expect(back?.user.id).toBe(support.id);
    expect(back?.session).toMatchObject({ id: own?.id, token: stopped.data?.session.token, createdAt: own?.createdAt, expiresAt: own?.expiresAt });
    expect(back?.session.activeOrganizationId).toBe("org-of-support");
    expect(back?.session.token).not.toBe(own?.token);
    expect((await cookie(support, "session_token"))?.maxAge).toBe(604800);
    expect(await cookie(support, "dont_remember")).toBeUndefined();
    expect(await identityAtOrganization(support)).toEqual({ kind: "user", user_id: support.id, session_id: own?.id });

    // Neither the impersonation session nor the admin's old token opens anything now, wherever a copy went.
    for (const copied of [impersonationCookie, ownCookie]) {
      const copy = stack.browser();
      await copy.jar.setCookie(copied, stack.gateway.url);
      expect(await identityAtOrganization(copy)).toEqual({ kind: "anonymous" });
    }
    expect(await db()("sessions").where({ impersonated_by: support.id })).toEqual([]);
    await expect
      .poll(async () => (await eventData("session.revoked", user.id)).at(-1), { timeout: 5_000 })
      .toMatchObject({ sessions: [{ id: acting?.session.id }] });

    expect((await support.client.admin.stopImpersonating()).error).toMatchObject({ status: 400, message: "You are not impersonating anyone" });
  });

  it("returns a browser-session admin to a browser-session cookie", async () => {
    const user = await member("impersonated.briefly@example.com");
    const support = await memberWithRole("support.three@example.com", "admin");
    await support.client.signIn.email({ email: "support.three@example.com", password, rememberMe: false });
    const own = (await support.client.getSession()).data?.session;
    await support.client.admin.impersonateUser({ userId: user.id });
    expect((await support.client.admin.stopImpersonating()).data?.session.id).toBe(own?.id);
    expect((await cookie(support, "session_token"))?.maxAge).toBeNull();
    expect(await cookie(support, "dont_remember")).toBeDefined();
    expect((await support.client.getSession()).data?.session.id).toBe(own?.id);
  });

  it("moves better-auth's session_data cookie along to each session, when that cache is on", async () => {
    const cached = await startAuthStack({ SESSION_COOKIE_CACHE: "true" }, { SESSION_COOKIE_CACHE: "true" });
    try {
      const userBrowser = cached.browser();
      const user = (await userBrowser.client.signUp.email({ name: "Cached", email: "cached@example.com", password })).data?.user;
      const support = cached.browser();
      const supportUser = (await support.client.signUp.email({ name: "Support", email: "support@example.com", password })).data?.user;
      await cached.auth.context.db("users").where({ id: supportUser?.id }).update({ role: "admin" });
      const cachedUserId = async () => {
        const data = (await support.jar.getCookies(cached.gateway.url)).find((c) => c.key === "better-auth.session_data");
        return decodeSessionCache(data?.value ?? "", cached.auth.context.config.AUTH_SECRET)?.user.id;
      };
      await support.client.admin.impersonateUser({ userId: user?.id ?? "" });
      expect(await cachedUserId()).toBe(user?.id);
      await support.client.admin.stopImpersonating();
      expect(await cachedUserId()).toBe(supportUser?.id);
    } finally {
      await cached.stop();
    }
  });

  it("ends with the admin's own session, which it stands on", async () => {
    const user = await member("left.behind@example.com");
    const support = await memberWithRole("support.four@example.com", "admin");
    const acting = (await support.client.admin.impersonateUser({ userId: user.id })).data?.session;
    expect(await identityAtOrganization(support)).toMatchObject({ kind: "user", user_id: user.id });
    await admin.client.admin.revokeUserSessions({ userId: support.id });
    await expect.poll(() => identityAtOrganization(support), { timeout: 5_000 }).toEqual({ kind: "anonymous" });
    expect((await support.client.admin.stopImpersonating()).error).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
    await expect
      .poll(async () => (await eventData("session.revoked", user.id)).at(-1), { timeout: 5_000 })
      .toMatchObject({ user_id: user.id, sessions: [{ id: acting?.id }] });
    // The user's own session is not the admin's to end.
    expect(await identityAtOrganization(user)).toMatchObject({ kind: "user", user_id: user.id });
  });

  it("fails to return, as better-auth does, when the admin's own session expired meanwhile", async () => {
    const user = await member("outlasted@example.com");
    const support = await memberWithRole("support.seven@example.com", "admin");
    const own = (await support.client.getSession()).data?.session;
    await support.client.admin.impersonateUser({ userId: user.id });
    await db()("sessions").where({ id: own?.id }).update({ expires_at: new Date(Date.now() - 1_000) });
    expect((await support.client.admin.stopImpersonating()).error).toMatchObject({ status: 500, message: "Failed to find admin session" });
  });

  it("ends an impersonation begun from another, with it", async () => {
    const other = await memberWithRole("impersonated.admin@example.com", "admin");
    const user = await member("impersonated.twice@example.com");
    const rootBrowser = stack.browser();
    await rootBrowser.client.signIn.email({ email: root.email, password });
    const first = (await rootBrowser.client.admin.impersonateUser({ userId: other.id })).data?.session;
    // Acting as the other admin, the root admin impersonates a user in turn: it ends no later than the first.
    const second = (await rootBrowser.client.admin.impersonateUser({ userId: user.id })).data?.session;
    expect(second).toMatchObject({ impersonatedBy: other.id });
    expect(new Date(second?.expiresAt ?? 0).getTime()).toBeLessThanOrEqual(new Date(first?.expiresAt ?? 0).getTime());
    const copy = stack.browser();
    await copy.jar.setCookie(await rootBrowser.jar.getCookieString(stack.gateway.url), stack.gateway.url);
    expect(await identityAtOrganization(copy)).toMatchObject({ kind: "user", user_id: user.id });
    // The other admin signs out everywhere: what was done in their name ends too.
    await other.client.revokeSessions();
    await expect.poll(() => identityAtOrganization(copy), { timeout: 5_000 }).toEqual({ kind: "anonymous" });
    expect(await db()("sessions").where({ impersonated_by: other.id })).toEqual([]);
  });

  it("ends when the user becomes an admin, unless the admin may impersonate admins", async () => {
    const user = await member("promoted.meanwhile@example.com");
    const support = await memberWithRole("support.eight@example.com", "admin");
    await support.client.admin.impersonateUser({ userId: user.id });
    const rootBrowser = stack.browser();
    await rootBrowser.client.signIn.email({ email: root.email, password });
    await rootBrowser.client.admin.impersonateUser({ userId: user.id });
    for (const browser of [support, rootBrowser]) expect(await identityAtOrganization(browser)).toMatchObject({ kind: "user", user_id: user.id });

    await admin.client.admin.updateUser({ userId: user.id, data: { role: "admin" } });
    await expect.poll(() => identityAtOrganization(support), { timeout: 5_000 }).toEqual({ kind: "anonymous" });
    expect(await identityAtOrganization(rootBrowser)).toMatchObject({ kind: "user", user_id: user.id });
    expect(await identityAtOrganization(user)).toMatchObject({ kind: "user", user_id: user.id });
  });

  it("goes on while the admin keeps the right to impersonate", async () => {
    const user = await member("still.impersonated@example.com");
    const support = await memberWithRole("support.nine@example.com", "admin");
    await support.client.admin.impersonateUser({ userId: user.id });
    await admin.client.admin.setRole({ userId: support.id, role: ["user", "admin"] });
    await admin.client.admin.updateUser({ userId: support.id, data: { name: "Renamed Support" } });
    await admin.client.admin.setRole({ userId: user.id, role: "user" });
    expect(await identityAtOrganization(support)).toMatchObject({ kind: "user", user_id: user.id });
    expect((await support.client.admin.stopImpersonating()).data?.user.id).toBe(support.id);
  });

  it("returns only to a session of the admin who impersonated", async () => {
    const user = await member("not.a.way.in@example.com");
    const support = await memberWithRole("support.six@example.com", "admin");
    await support.client.admin.impersonateUser({ userId: user.id });
    // Were the record to point at somebody else's session, stopping must not hand that session over.
    const usersOwn = (await user.client.getSession()).data?.session;
    await db()("sessions").where({ impersonated_by: support.id }).update({ impersonator_session_id: usersOwn?.id });
    expect((await support.client.admin.stopImpersonating()).error).toMatchObject({ status: 500, message: "Failed to find admin session" });
    expect((await support.client.getSession()).data?.user.id).toBe(user.id);
    expect((await user.client.getSession()).data?.session).toMatchObject({ id: usersOwn?.id, token: usersOwn?.token });
  });

  it("does not let an admin impersonate another admin, unless listed in ADMIN_USER_IDS", async () => {
    const other = await memberWithRole("other.admin@example.com", "user,admin");
    expect((await admin.client.admin.impersonateUser({ userId: other.id })).error).toMatchObject({
      status: 403,
      code: "YOU_CANNOT_IMPERSONATE_ADMINS",
      message: "You cannot impersonate admins",
    });
    expect((await admin.client.admin.impersonateUser({ userId: root.id })).error).toMatchObject({ status: 403, code: "YOU_CANNOT_IMPERSONATE_ADMINS" });
    expect((await admin.client.admin.impersonateUser({ userId: "no-such-user" })).error).toMatchObject({ status: 404, code: "USER_NOT_FOUND" });

    const rootBrowser = stack.browser();
    await rootBrowser.client.signIn.email({ email: root.email, password });
    expect((await rootBrowser.client.admin.impersonateUser({ userId: other.id })).data?.session).toMatchObject({ impersonatedBy: root.id });
    expect((await rootBrowser.client.admin.stopImpersonating()).data?.user.id).toBe(root.id);
  });

  it("does not impersonate a banned user, but lifts a ban that has run out, as a sign-in would", async () => {
    const user = await member("banned.impersonated@example.com");
    await admin.client.admin.banUser({ userId: user.id });
    const support = await memberWithRole("support.five@example.com", "admin");
    expect((await support.client.admin.impersonateUser({ userId: user.id })).error).toMatchObject({ status: 403, code: "BANNED_USER", message: BANNED_MESSAGE });
    expect((await support.client.getSession()).data?.user.id).toBe(support.id);

    await db()("users").where({ id: user.id }).update({ ban_expires: new Date(Date.now() - 1_000) });
    expect((await support.client.admin.impersonateUser({ userId: user.id })).data?.session.userId).toBe(user.id);
    expect(await db()("users").where({ id: user.id }).first()).toMatchObject({ banned: false, ban_reason: null, ban_expires: null });
    expect(await identityAtOrganization(support)).toMatchObject({ kind: "user", user_id: user.id });
  });
});
