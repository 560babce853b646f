import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalIdentityProvider, signInThroughProvider } from "../stacks/identity-provider.js";
import { ROOT_ADMIN, signInRootAdmin, startAuthStack, type AuthStack, type Browser } from "../stacks/auth.js";

/**
 * Attacks on accounts — an impersonation that outlives the admin's rights, an address registered
 * before its owner arrives, one admin taking over another — run through a real gateway with
 * better-auth's own client, as an outsider (or a rogue admin) would run them.
 */

let idp: LocalIdentityProvider;
/** Google pointed at the local identity provider. */
let stack: AuthStack;
/** The admin who demotes, bans and removes the others. */
let boss: Person;

const password = "correct horse battery staple";

type Person = Browser & { id: string; email: string };

beforeAll(async () => {
  idp = await LocalIdentityProvider.start();
  stack = await startAuthStack({ ...idp.env("google"), ADMIN_USER_IDS: ROOT_ADMIN.id });
  // Only a root admin changes another admin's role.
  boss = await signInRootAdmin(stack);
});

afterAll(async () => {
  await stack?.stop();
  await idp?.stop();
});

async function signUp(email: string, secret = password): Promise<Person> {
  const browser = stack.browser();
  const { data } = await browser.client.signUp.email({ name: email.split("@")[0] ?? email, email, password: secret });
  if (!data) throw new Error(`could not sign up ${email}`);
  return { ...browser, id: data.user.id, email };
}

/** An admin: made so in the database, as the operator's `npm run admin -- grant` would. */
async function admin(email: string): Promise<Person> {
  const person = await signUp(email);
  await stack.auth.context.db("users").where({ id: person.id }).update({ role: "admin" });
  return person;
}

/** Another browser holding a copy of this one's cookies, as someone who kept them would. */
async function copyOf(browser: Browser): Promise<Browser> {
  const copy = stack.browser();
  for (const cookie of await browser.jar.getCookies(stack.gateway.url)) await copy.jar.setCookie(cookie, stack.gateway.url);
  return copy;
}

/** Who the session in this browser acts as now, once the gateway has heard of any change (null: nobody). */
const actingAs = async (browser: Browser) => (await browser.client.getSession()).data?.user.id ?? null;

describe("#6 an impersonation ends with the impersonating admin's rights", () => {
  /** `support` acting as a user, with a copy of the impersonation cookie kept aside. */
  async function impersonating(name: string) {
    const support = await admin(`support.${name}@example.com`);
    const user = await signUp(`impersonated.${name}@example.com`);
    expect((await support.client.admin.impersonateUser({ userId: user.id })).error).toBeNull();
    const kept = await copyOf(support);
    // Cached by the gateway now, which would otherwise trust it for a while.
    expect(await actingAs(kept)).toBe(user.id);
    return { support, user, kept };
  }

  it("ends when the admin is demoted", async () => {
    const { support, user, kept } = await impersonating("demoted");
    expect((await boss.client.admin.setRole({ userId: support.id, role: "user" })).error).toBeNull();
    await expect.poll(() => actingAs(kept), { timeout: 5_000 }).toBeNull();
    // The user's own session is theirs, and goes on.
    expect(await actingAs(user)).toBe(user.id);
  });

  it("ends when the admin is banned", async () => {
    const { support, kept } = await impersonating("banned");
    expect((await boss.client.admin.banUser({ userId: support.id, banReason: "rogue" })).error).toBeNull();
    await expect.poll(() => actingAs(kept), { timeout: 5_000 }).toBeNull();
  });

  it("ends when the admin's account is removed", async () => {
    const { support, kept } = await impersonating("removed");
    expect((await boss.client.admin.removeUser({ userId: support.id })).error).toBeNull();
    await expect.poll(() => actingAs(kept), { timeout: 5_000 }).toBeNull();
  });

  it("ends when the admin signs out everywhere", async () => {
    const { support, kept } = await impersonating("signed.out");
    // From another device: the admin's own session, which the impersonation stands on, ends with the rest.
    const laptop = stack.browser();
    await laptop.client.signIn.email({ email: support.email, password });
    expect((await laptop.client.revokeSessions()).error).toBeNull();
    await expect.poll(() => actingAs(kept), { timeout: 5_000 }).toBeNull();
  });

  it("lasts an hour at most, however busy, and never beyond the admin's own session", async () => {
    // Every get-session slides an ordinary session's expiry forward here.
    const sliding = await startAuthStack({ SESSION_UPDATE_AGE_SECONDS: "0" });
    try {
      const support = sliding.browser();
      const supportId = (await support.client.signUp.email({ name: "Support", email: "support@example.com", password })).data?.user.id ?? "";
      await sliding.auth.context.db("users").where({ id: supportId }).update({ role: "admin" });
      const userId = (await sliding.browser().client.signUp.email({ name: "User", email: "user@example.com", password })).data?.user.id ?? "";
      const expiry = async () => new Date((await support.client.getSession()).data?.session.expiresAt ?? 0).getTime();
      const before = await expiry();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await expiry()).toBeGreaterThan(before);

      const started = await support.client.admin.impersonateUser({ userId });
      const ends = new Date(started.data?.session.expiresAt ?? 0).getTime();
      expect(ends).toBeLessThanOrEqual(Date.now() + 3600_000);
      for (let use = 0; use < 3; use++) expect(await expiry()).toBe(ends);
      await support.client.admin.stopImpersonating();

      // An admin whose own session ends in ten minutes gets an impersonation of ten minutes.
      const own = (await support.client.getSession()).data?.session;
      const soon = new Date(Date.now() + 600_000);
      await sliding.auth.context.db("sessions").where({ id: own?.id }).update({ expires_at: soon });
      await sliding.forgetCachedSessions();
      const short = await support.client.admin.impersonateUser({ userId });
      expect(new Date(short.data?.session.expiresAt ?? 0).getTime()).toBeLessThanOrEqual(soon.getTime());
    } finally {
      await sliding.stop();
    }
  });
});

describe("#7 an address registered before its owner arrives", () => {
  it("is the owner's alone once a provider vouches for it: the squatter's password and sessions stop working", async () => {
    const attackersPassword = "the attacker's password";
    const squatter = await signUp("victim@example.com", attackersPassword);
    expect(await actingAs(squatter)).toBe(squatter.id);

    // The owner signs in with Google, which verified the address.
    idp.person = { id: "google-victim", email: "victim@example.com", emailVerified: true, name: "Victim" };
    const owner = stack.browser();
    expect((await signInThroughProvider(stack, owner, "google")).pathname).toBe("/dashboard");
    expect((await owner.client.getSession()).data?.user).toMatchObject({ id: squatter.id, email: "victim@example.com", emailVerified: true });
    expect((await owner.client.listAccounts()).data?.map((account) => account.providerId)).toEqual(["google"]);

    await expect.poll(() => actingAs(squatter), { timeout: 5_000 }).toBeNull();
    const again = await stack.browser().client.signIn.email({ email: "victim@example.com", password: attackersPassword });
    expect(again.error).toMatchObject({ status: 401, code: "INVALID_EMAIL_OR_PASSWORD" });
    expect(await actingAs(owner)).toBe(squatter.id);
  });

  it("keeps everything of an owner who had proved it already", async () => {
    const local = await signUp("proven@example.com");
    await stack.auth.context.db("users").where({ id: local.id }).update({ email_verified: true });
    idp.person = { id: "google-proven", email: "proven@example.com", emailVerified: true, name: "Proven" };
    await signInThroughProvider(stack, stack.browser(), "google");
    expect(await actingAs(local)).toBe(local.id);
    expect((await stack.browser().client.signIn.email({ email: "proven@example.com", password })).data?.user.id).toBe(local.id);
  });
});

describe("#10 one admin taking over another", () => {
  it("cannot set another admin's password", async () => {
    const rogue = await admin("rogue.password@example.com");
    const victim = await admin("victim.password@example.com");
    const set = await rogue.client.admin.setUserPassword({ userId: victim.id, newPassword: "taken over at last" });
    expect(set.error).toMatchObject({ status: 403, code: "YOU_CANNOT_SET_ADMINS_PASSWORD", message: "You cannot set another admin's password" });
    expect((await stack.browser().client.signIn.email({ email: victim.email, password: "taken over at last" })).error?.status).toBe(401);
    expect((await stack.browser().client.signIn.email({ email: victim.email, password })).data?.user.id).toBe(victim.id);

    // Their own, and a user's, as before.
    expect((await rogue.client.admin.setUserPassword({ userId: rogue.id, newPassword: "my own new password" })).data).toEqual({ status: true });
    const user = await signUp("user.password@example.com");
    expect((await rogue.client.admin.setUserPassword({ userId: user.id, newPassword: "set by an admin" })).data).toEqual({ status: true });
  });

  it("cannot move another admin's address to a mailbox of theirs, to reset the password from there", async () => {
    const rogue = await admin("rogue.email@example.com");
    const victim = await admin("victim.email@example.com");
    const moved = await rogue.client.admin.updateUser({ userId: victim.id, data: { email: "rogue.mailbox@example.com" } });
    expect(moved.error).toMatchObject({ status: 403, code: "YOU_CANNOT_SET_ADMINS_EMAIL", message: "You cannot change another admin's email" });
    expect((await boss.client.admin.getUser({ query: { id: victim.id } })).data?.email).toBe(victim.email);

    expect((await rogue.client.admin.updateUser({ userId: rogue.id, data: { email: "rogue.moved@example.com" } })).data?.email).toBe("rogue.moved@example.com");
    const user = await signUp("user.email@example.com");
    expect((await rogue.client.admin.updateUser({ userId: user.id, data: { email: "user.moved@example.com" } })).data?.email).toBe("user.moved@example.com");
  });

  it("cannot demote another admin first, to take the account over as a user's", async () => {
    const rogue = await admin("rogue.role@example.com");
    const victim = await admin("victim.role@example.com");
    for (const attempt of [rogue.client.admin.setRole({ userId: victim.id, role: "user" }), rogue.client.admin.updateUser({ userId: victim.id, data: { role: "user" } })]) {
      expect((await attempt).error).toMatchObject({ status: 403, code: "YOU_CANNOT_CHANGE_ADMINS_ROLE" });
    }
    expect((await rogue.client.admin.setUserPassword({ userId: victim.id, newPassword: "taken over at last" })).error?.code).toBe("YOU_CANNOT_SET_ADMINS_PASSWORD");
    expect((await boss.client.admin.getUser({ query: { id: victim.id } })).data?.role).toBe("admin");

    // A user's role, as before; and a root admin (ADMIN_USER_IDS) may still demote an admin.
    const user = await signUp("user.role@example.com");
    expect((await rogue.client.admin.setRole({ userId: user.id, role: "admin" })).data?.user.role).toBe("admin");
    expect((await boss.client.admin.setRole({ userId: victim.id, role: "user" })).data?.user.role).toBe("user");
  });
});
