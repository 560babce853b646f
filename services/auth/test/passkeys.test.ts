import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_URL, startAuthStack, type AuthStack, type Browser } from "../../../test/stacks/auth.js";
import { readMailbox } from "../../../test/stacks/dev-mailbox.js";
import { password, signedUp, type Person } from "../../../test/stacks/people.js";
import { SoftwareAuthenticator } from "../../../test/stacks/software-authenticator.js";

let stack: AuthStack;

beforeAll(async () => {
  stack = await startAuthStack();
});

afterAll(async () => {
  await stack?.stop();
});

/** A new user signed in on a browser of their own, with an authenticator beside it. */
async function signedUpWithAuthenticator(email: string): Promise<Person & { authenticator: SoftwareAuthenticator }> {
  return { ...(await signedUp(stack, email, { verified: false })), authenticator: new SoftwareAuthenticator(PUBLIC_URL) };
}

/** Registers a passkey for the browser's user with its authenticator, as passkeyClient's addPasskey does. */
async function addPasskey(browser: Browser & { authenticator: SoftwareAuthenticator }, name?: string) {
  const options = await browser.client.passkey.generateRegisterOptions();
  if (!options.data) throw new Error(`no registration options: ${JSON.stringify(options.error)}`);
  const added = await browser.client.passkey.verifyRegistration({ response: browser.authenticator.createCredential(options.data), name });
  if (!added.data) throw new Error(`registration refused: ${JSON.stringify(added.error)}`);
  return added.data;
}

/** Signs in on `browser` with a passkey of `authenticator`, as passkeyClient's signIn.passkey does. */
async function signInWithPasskey(browser: Browser, authenticator: SoftwareAuthenticator, assertion: { counter?: number } = {}) {
  const options = await browser.client.passkey.generateAuthenticateOptions();
  if (!options.data) throw new Error(`no authentication options: ${JSON.stringify(options.error)}`);
  return browser.client.passkey.verifyAuthentication({ response: authenticator.signAssertion(options.data, assertion) });
}

describe("passkeys with better-auth's passkey client", () => {
  it("registers a passkey for the signed-in user and signs them in with it on another browser", async () => {
    const ada = await signedUpWithAuthenticator("ada.passkey@example.com");
    const options = await ada.client.passkey.generateRegisterOptions();
    expect(options.data).toMatchObject({
      rp: { id: "localhost", name: "Tollgate" },
      user: { name: "ada.passkey@example.com", displayName: "ada.passkey@example.com" },
      attestation: "none",
      excludeCredentials: [],
      authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
    });
    const challengeCookie = (await ada.jar.getCookies(stack.gateway.url)).find((cookie) => cookie.key === "better-auth.better-auth-passkey");
    expect(challengeCookie).toMatchObject({ httpOnly: true, path: "/", sameSite: "lax", maxAge: 300 });

    const registered = await ada.client.passkey.verifyRegistration({ response: ada.authenticator.createCredential(options.data!), name: "Laptop" });
    expect(registered.error).toBeNull();
    expect(registered.data).toMatchObject({ name: "Laptop", userId: ada.id, credentialID: ada.authenticator.credentials[0]?.id, counter: 0, deviceType: "singleDevice", backedUp: false, transports: "internal" });

    const listed = await ada.client.passkey.listUserPasskeys();
    expect(listed.data?.map((passkey) => passkey.name)).toEqual(["Laptop"]);
    // A second passkey on the same authenticator is refused by the browser: the options name the first.
    const again = await ada.client.passkey.generateRegisterOptions();
    expect(again.data?.excludeCredentials).toEqual([{ id: registered.data?.credentialID, type: "public-key", transports: ["internal"] }]);

    const elsewhere = stack.browser();
    const signIn = await signInWithPasskey(elsewhere, ada.authenticator);
    expect(signIn.error).toBeNull();
    expect(signIn.data?.user).toMatchObject({ id: ada.id, email: "ada.passkey@example.com" });
    expect(signIn.data?.session.token).toMatch(/^[A-Za-z0-9]{32}$/);
    const session = await elsewhere.client.getSession();
    expect(session.data?.user.id).toBe(ada.id);
    expect((await elsewhere.client.passkey.listUserPasskeys()).data?.[0]?.counter).toBe(1);
  });

  it("begins a new session with the passkey when asked to (createSession)", async () => {
    const joan = await signedUpWithAuthenticator("joan.passkey@example.com");
    const options = await joan.client.passkey.generateRegisterOptions();
    const registered = await joan.client.passkey.verifyRegistration({ response: joan.authenticator.createCredential(options.data!), createSession: true });
    // The browser is on the new session: its cookie names the session the answer shows.
    const session = await joan.client.getSession();
    expect(registered.data).toMatchObject({ userId: joan.id, user: { id: joan.id }, session: { userId: joan.id, token: session.data?.session.token } });
  });

  it("offers any passkey when signed out (autofill) and only the user's own when signed in", async () => {
    const grace = await signedUpWithAuthenticator("grace.passkey@example.com");
    const passkey = await addPasskey(grace);
    const signedOut = await stack.browser().client.passkey.generateAuthenticateOptions();
    expect(signedOut.data).toMatchObject({ rpId: "localhost", userVerification: "preferred" });
    expect(signedOut.data?.allowCredentials ?? []).toEqual([]);
    const signedIn = await grace.client.passkey.generateAuthenticateOptions();
    expect(signedIn.data?.allowCredentials).toEqual([{ id: passkey.credentialID, type: "public-key", transports: ["internal"] }]);
  });

  it("accepts a challenge once", async () => {
    const alan = await signedUpWithAuthenticator("alan.passkey@example.com");
    await addPasskey(alan);
    const browser = stack.browser();
    const options = await browser.client.passkey.generateAuthenticateOptions();
    const response = alan.authenticator.signAssertion(options.data!);
    expect((await browser.client.passkey.verifyAuthentication({ response })).error).toBeNull();
    const replayed = await browser.client.passkey.verifyAuthentication({ response });
    expect(replayed.error).toMatchObject({ status: 400, code: "CHALLENGE_NOT_FOUND", message: "Challenge not found" });
  });

  it("refuses an answer whose counter does not move forward, as a cloned authenticator's", async () => {
    const edsger = await signedUpWithAuthenticator("edsger.passkey@example.com");
    await addPasskey(edsger);
    expect((await signInWithPasskey(stack.browser(), edsger.authenticator)).error).toBeNull();
    const cloned = await signInWithPasskey(stack.browser(), edsger.authenticator, { counter: 1 });
    expect(cloned.error).toMatchObject({ status: 400, code: "AUTHENTICATION_FAILED", message: "Authentication failed" });
    expect((await signInWithPasskey(stack.browser(), edsger.authenticator)).error).toBeNull();
  });

  it("refuses a challenge the browser was not given, or one given for the other ceremony", async () => {
    const barbara = await signedUpWithAuthenticator("barbara.passkey@example.com");
    const options = await barbara.client.passkey.generateRegisterOptions();
    const response = barbara.authenticator.createCredential(options.data!);
    // Her other browser, signed in too, was given no challenge.
    const other = stack.browser();
    await other.client.signIn.email({ email: "barbara.passkey@example.com", password });
    expect((await other.client.passkey.verifyRegistration({ response })).error).toMatchObject({ status: 400, code: "CHALLENGE_NOT_FOUND" });

    // Asking to sign in replaces the registration's challenge with a sign-in's.
    await barbara.client.passkey.generateAuthenticateOptions();
    expect((await barbara.client.passkey.verifyRegistration({ response })).error).toMatchObject({ status: 400, code: "CHALLENGE_NOT_FOUND" });
    expect((await barbara.client.passkey.listUserPasskeys()).data).toEqual([]);
  });

  it("refuses a passkey made for another site", async () => {
    const mallory = await signedUpWithAuthenticator("mallory.passkey@example.com");
    const options = await mallory.client.passkey.generateRegisterOptions();
    const phished = new SoftwareAuthenticator("https://evil.example").createCredential(options.data!);
    const refused = await mallory.client.passkey.verifyRegistration({ response: phished });
    expect(refused.error).toMatchObject({ status: 400, code: "FAILED_TO_VERIFY_REGISTRATION", message: "Failed to verify registration" });
    expect((await mallory.client.passkey.listUserPasskeys()).data).toEqual([]);
  });

  it("lets only its owner rename or delete a passkey, and a deleted one signs no one in", async () => {
    const owner = await signedUpWithAuthenticator("owner.passkey@example.com");
    const other = await signedUpWithAuthenticator("other.passkey@example.com");
    const passkey = await addPasskey(owner, "Phone");

    expect((await other.client.passkey.deletePasskey({ id: passkey.id })).error).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
    expect((await other.client.passkey.updatePasskey({ id: passkey.id, name: "Mine now" })).error).toMatchObject({
      status: 401,
      code: "YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY",
    });
    expect((await other.client.passkey.deletePasskey({ id: "no-such-passkey" })).error).toMatchObject({ status: 404, code: "PASSKEY_NOT_FOUND", message: "Passkey not found" });
    expect((await other.client.passkey.listUserPasskeys()).data).toEqual([]);

    const renamed = await owner.client.passkey.updatePasskey({ id: passkey.id, name: "  Work phone " });
    expect(renamed.data?.passkey).toMatchObject({ id: passkey.id, name: "Work phone" });
    expect((await owner.client.passkey.updatePasskey({ id: passkey.id, name: "  " })).error).toMatchObject({ status: 400 });
    expect((await owner.client.passkey.listUserPasskeys()).data?.map((listed) => listed.name)).toEqual(["Work phone"]);

    expect((await owner.client.passkey.deletePasskey({ id: passkey.id })).data).toEqual({ status: true });
    expect((await owner.client.passkey.listUserPasskeys()).data).toEqual([]);
    const signIn = await signInWithPasskey(stack.browser(), owner.authenticator);
    expect(signIn.error).toMatchObject({ status: 401, code: "PASSKEY_NOT_FOUND" });
  });

  it("keeps the rules of every sign-in: a banned user is refused", async () => {
    const banned = await signedUpWithAuthenticator("banned.passkey@example.com");
    await addPasskey(banned);
    await stack.auth.context.db("users").where({ id: banned.id }).update({ banned: true });
    const signIn = await signInWithPasskey(stack.browser(), banned.authenticator);
    expect(signIn.error).toMatchObject({ status: 403, code: "BANNED_USER" });
  });

  it("needs a signed-in user to add, list or change passkeys", async () => {
    const { client } = stack.browser();
    expect((await client.passkey.generateRegisterOptions()).error).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
    expect((await client.passkey.listUserPasskeys()).error).toMatchObject({ status: 401 });
    expect((await client.passkey.deletePasskey({ id: "anything" })).error).toMatchObject({ status: 401 });
  });
});

describe("passkey sign-in where addresses must be verified", () => {
  let strict: AuthStack;

  beforeAll(async () => {
    strict = await startAuthStack({ REQUIRE_EMAIL_VERIFICATION: "true" });
  });

  afterAll(async () => {
    await strict?.stop();
  });

  it("refuses a user whose address is not verified, as a password sign-in does", async () => {
    const email = "unverified.passkey@example.com";
    const laptop = { ...strict.browser(), authenticator: new SoftwareAuthenticator(PUBLIC_URL) };
    const signUp = await laptop.client.signUp.email({ name: "Unverified", email, password });
    const users = () => strict.auth.context.db("users").where({ id: signUp.data?.user.id });
    // Verified once (they added the passkey then); the address is unverified again since.
    await users().update({ email_verified: true });
    await laptop.client.signIn.email({ email, password });
    await addPasskey(laptop);
    await users().update({ email_verified: false });

    const verificationMails = async () =>
      (await readMailbox(strict)).filter((mail) => mail.to === email && mail.links.some((link) => link.includes("/api/auth/verify-email"))).length;
    const mailedBefore = await verificationMails();
    const signIn = await signInWithPasskey(strict.browser(), laptop.authenticator);
    expect(signIn.error).toMatchObject({ status: 403, code: "EMAIL_NOT_VERIFIED" });
    // As after a refused password sign-in, a fresh link is on its way.
    expect(await verificationMails()).toBe(mailedBefore + 1);
  });
});
