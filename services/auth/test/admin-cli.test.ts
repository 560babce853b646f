import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnvironment, publishedEvents, watch } from "@tollgate/kit/testing";
import { startAuthStack, type AuthStack } from "../../../test/stacks/auth.js";

const REPO = fileURLToPath(new URL("../../..", import.meta.url));
const password = "correct horse battery staple";

let stack: AuthStack;

beforeAll(async () => {
  stack = await startAuthStack();
});

afterAll(async () => {
  await stack?.stop();
});

/** `npm run admin -- <args>` from the repository's root, as an operator would type it. */
async function npmRunAdmin(args: string[], databaseUrl = stack.environment.databaseUrl) {
  const child = spawn("npm", ["run", "--silent", "admin", "--", ...args], {
    cwd: REPO,
    env: { ...process.env, DATABASE_URL: databaseUrl, NATS_PREFIX: stack.environment.natsPrefix },
  });
  const run = watch(child);
  const { code } = await run.exited;
  return { code, ...run.output() };
}

async function signUp(email: string): Promise<string> {
  const { data } = await stack.browser().client.signUp.email({ name: "Operator", email, password });
  if (!data) throw new Error(`could not sign up ${email}`);
  return data.user.id;
}

const roleOf = async (id: string) => (await stack.auth.context.db("users").where({ id }).first<{ role: string }>()).role;

/** user.updated events written to the outbox for a user, published or not. */
const updatesWritten = (id: string) =>
  stack.auth.context.db("outbox").whereRaw("envelope->>'type' = 'user.updated'").whereRaw("envelope->'data'->>'id' = ?", [id]).count<{ count: number }[]>({ count: "*" });

describe("npm run admin", () => {
  it("grants the admin role by e-mail, announced like any change, and revokes it", async () => {
    const id = await signUp("first.admin@example.com");
    const browser = stack.browser();
    await browser.client.signIn.email({ email: "first.admin@example.com", password });
    expect((await browser.client.admin.listUsers({ query: {} })).error?.status).toBe(403);

    const granted = await npmRunAdmin(["grant", "First.Admin@Example.com"]);
    expect(granted).toMatchObject({ code: 0, stdout: "first.admin@example.com is now an admin (roles: admin)\n" });
    expect(await roleOf(id)).toBe("admin");
    expect((await browser.client.admin.listUsers({ query: {} })).data?.total).toBeGreaterThan(0);
    // The running auth service's relay publishes what the command wrote to the outbox.
    await expect
      .poll(async () => (await publishedEvents(stack.auth.context.bus)).filter((event) => event.type === "user.updated").map((event) => event.data), { timeout: 5_000 })
      .toContainEqual(expect.objectContaining({ id, role: "admin" }));

    const again = await npmRunAdmin(["grant", "first.admin@example.com"]);
    expect(again).toMatchObject({ code: 0, stdout: "first.admin@example.com is already an admin (roles: admin)\n" });
    expect((await updatesWritten(id))[0]?.count).toBe(1);

    const revoked = await npmRunAdmin(["revoke", "first.admin@example.com"]);
    expect(revoked).toMatchObject({ code: 0, stdout: "first.admin@example.com is no longer an admin (roles: user)\n" });
    expect(await roleOf(id)).toBe("user");
    expect((await browser.client.admin.listUsers({ query: {} })).error?.status).toBe(403);
    expect((await updatesWritten(id))[0]?.count).toBe(2);
  });

  it("ends the impersonations of an admin it revokes", async () => {
    const id = await signUp("impersonating.admin@example.com");
    const userId = await signUp("impersonated.by.cli@example.com");
    const admin = stack.browser();
    await admin.client.signIn.email({ email: "impersonating.admin@example.com", password });
    expect((await npmRunAdmin(["grant", "impersonating.admin@example.com"])).code).toBe(0);
    expect((await admin.client.admin.impersonateUser({ userId })).data?.session).toMatchObject({ impersonatedBy: id });
    expect((await admin.client.getSession()).data?.user.id).toBe(userId);

    expect((await npmRunAdmin(["revoke", "impersonating.admin@example.com"])).code).toBe(0);
    await expect.poll(async () => (await admin.client.getSession()).data, { timeout: 5_000 }).toBeNull();
    expect(await stack.auth.context.db("sessions").where({ impersonated_by: id })).toEqual([]);
  });

  it("keeps a user's other roles", async () => {
    const id = await signUp("many.roles@example.com");
    await stack.auth.context.db("users").where({ id }).update({ role: "user,support" });
    expect((await npmRunAdmin(["grant", "many.roles@example.com"])).code).toBe(0);
    expect(await roleOf(id)).toBe("support,admin");
    expect((await npmRunAdmin(["revoke", "many.roles@example.com"])).code).toBe(0);
    expect(await roleOf(id)).toBe("support");
  });

  it("says so, and fails with sysexits codes, for an unknown address, wrong arguments, or a database it cannot use", async () => {
    const empty = await createTestEnvironment();
    const [unknown, usage, extra, unmigrated, unreachable] = await Promise.all([
      npmRunAdmin(["grant", "nobody@example.com"]),
      npmRunAdmin(["promote", "nobody@example.com"]),
      npmRunAdmin(["grant", "a@example.com", "b@example.com"]),
      npmRunAdmin(["grant", "nobody@example.com"], empty.databaseUrl),
      // Port 1 on this host: nothing listens there.
      npmRunAdmin(["grant", "nobody@example.com"], "postgres://postgres@127.0.0.1:1/tollgate"),
    ]);
    expect(unknown.code).toBe(67);
    expect(unknown.stderr).toContain("no user has the e-mail address nobody@example.com; they must sign up first");
    for (const wrong of [usage, extra]) {
      expect(wrong.code).toBe(64);
      expect(wrong.stderr).toContain("usage: npm run admin -- grant <email> | revoke <email>");
    }
    expect(unmigrated.code).toBe(69);
    expect(unmigrated.stderr).toContain("the auth service has not set up its tables here yet; run `npm start` (or `npm run migrate`) first");
    expect(unreachable.code).toBe(69);
    expect(unreachable.stderr).toContain("admin: cannot use Postgres at postgres://postgres@127.0.0.1:1/tollgate (");
  });

  it("refuses a setting it cannot use", async () => {
    const badSetting = await npmRunAdmin(["grant", "nobody@example.com"], "mysql://127.0.0.1/tollgate");
    expect(badSetting.code).toBe(78);
    expect(badSetting.stderr).toContain("DATABASE_URL");
  });
});
