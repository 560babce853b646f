import { generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SecretVault } from "@tollgate/kit";
import { hashToken } from "../src/sessions/sessions.sql.js";
import { followRedirects, LocalIdentityProvider, signInThroughProvider, TENANT_ID } from "../../../test/stacks/identity-provider.js";
import { PUBLIC_URL, startAuthStack, viaGateway, type AuthStack, type Browser } from "../../../test/stacks/auth.js";

let idp: LocalIdentityProvider;
/** Google, GitHub, Discord, Microsoft, Apple and Facebook pointed at the local identity provider. */
let stack: AuthStack;
const VAULT_KEY_ID = "k1";
const vaultKey = Buffer.alloc(32, 7).toString("base64");

beforeAll(async () => {
  idp = await LocalIdentityProvider.start();
  stack = await startAuthStack({
    ...idp.env("google", "github", "discord", "microsoft", "apple", "facebook"),
    TOKEN_ENCRYPTION_KEYS: `${VAULT_KEY_ID}:${vaultKey}`,
  });
});

afterAll(async () => {
  await stack?.stop();
  await idp?.stop();
});

const db = () => stack.auth.context.db;
const password = "correct horse battery staple";
let people = 0;

/** A new person at the identity provider, signing in next. */
function nextPerson(overrides: Partial<LocalIdentityProvider["person"]> = {}) {
  people += 1;
  idp.person = { id: String(5000 + people), email: `person${people}@example.com`, emailVerified: true, name: `Person ${people}`, picture: `https://images.example/${people}.png`, ...overrides };
  return idp.person;
}

/** The authorization request a flow sends the browser to, without following it. */
async function authorizationRequest(browser: Browser, provider = "google", options: Record<string, unknown> = {}): Promise<URL> {
  const { data } = await browser.client.signIn.social({ provider, callbackURL: "/dashboard", errorCallbackURL: "/oops", disableRedirect: true, ...options });
  return new URL((data as { url: string }).url);
}

/** The identity provider's answer to an authorization request: our callback, with its code and state. */
async function callbackFor(browser: Browser, authorization: URL): Promise<string> {
  const response = await browser.fetch(authorization, { redirect: "manual" });
  return viaGateway(stack, response.headers.get("location") ?? "");
}

async function errorOf(browser: Browser | null, callback: string): Promise<{ path: string; error: string | null }> {
  const response = await (browser?.fetch ?? fetch)(callback, { redirect: "manual" });
  const location = new URL(response.headers.get("location") ?? "", PUBLIC_URL);
  return { path: location.pathname, error: location.searchParams.get("error") };
}

async function accountRow(provider: string, accountId: string) {
  return db()("accounts").where({ provider_id: provider, account_id: accountId }).first<Record<string, unknown>>();
}

describe("social sign-in through the redirect flow", () => {
  it("signs a new Google user up from the ID token, then signs them in again with a new session", async () => {
    const person = nextPerson();
    const browser = stack.browser();
    const authorization = await authorizationRequest(browser);
    expect(authorization.searchParams.get("client_id")).toBe("google-client");
    expect(authorization.searchParams.get("redirect_uri")).toBe(`${PUBLIC_URL}/api/auth/callback/google`);
    expect(authorization.searchParams.get("scope")).toBe("email profile openid");
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorization.searchParams.get("state")).toMatch(/^[A-Za-z0-9]{32}$/);

    const landed = await signInThroughProvider(stack, browser, "google");
    expect(landed.pathname).toBe("/welcome");
    const { data: session } = await browser.client.getSession();
    expect(session?.user).toMatchObject({ email: person.email, name: person.name, emailVerified: true, image: person.picture });
    const { data: accounts } = await browser.client.listAccounts();
    expect(accounts).toEqual([expect.objectContaining({ providerId: "google", accountId: person.id, userId: session?.user.id, scopes: ["dummy"] })]);

    const again = stack.browser();
    expect((await signInThroughProvider(stack, again, "google")).pathname).toBe("/dashboard");
    const { data: second } = await again.client.getSession();
    expect(second?.user.id).toBe(session?.user.id);
    expect(second?.session.token).not.toBe(session?.session.token);
  });

  it("takes a GitHub user's verified primary address from the e-mails endpoint, and the login for a missing name", async () => {
    const person = nextPerson({ name: "unused" });
    const browser = stack.browser();
    expect((await signInThroughProvider(stack, browser, "github")).pathname).toBe("/welcome");
    const { data } = await browser.client.getSession();
    expect(data?.user).toMatchObject({ email: person.email, emailVerified: true, name: "ada-l", image: person.picture });
    expect(idp.profileCalls).toEqual(expect.arrayContaining(["/github/user", "/github/user/emails"]));
  });

  it("signs in a Discord user with their display name and animated avatar", async () => {
    const person = nextPerson();
    const browser = stack.browser();
    const authorization = await authorizationRequest(browser, "discord");
    expect(authorization.searchParams.get("code_challenge")).toBeNull();
    expect(authorization.searchParams.get("scope")).toBe("identify email");
    await signInThroughProvider(stack, browser, "discord");
    const { data } = await browser.client.getSession();
    expect(data?.user).toMatchObject({ email: person.email, name: person.name, image: `https://cdn.discordapp.com/avatars/${person.id}/a_1269e74af4df7417b13759eae50c83dc.gif` });
  });

  it("keys a Microsoft account by its object id, from a token its tenant issued", async () => {
    const person = nextPerson();
    const browser = stack.browser();
    const authorization = await authorizationRequest(browser, "microsoft");
    expect(authorization.searchParams.get("scope")).toBe("openid profile email User.Read offline_access");
    await signInThroughProvider(stack, browser, "microsoft");
    expect(await accountRow("microsoft", person.id)).toBeDefined();
    const { data } = await browser.client.getSession();
    // Microsoft's token says nothing of verification for this person.
    expect(data?.user).toMatchObject({ email: person.email, name: person.name, emailVerified: false });
  });

  it("continues Apple's posted answer as a GET and takes the name Apple sends on the first sign-in", async () => {
    const person = nextPerson();
    const browser = stack.browser();
    const authorization = await authorizationRequest(browser, "apple", { errorCallbackURL: undefined });
    expect(authorization.searchParams.get("response_mode")).toBe("form_post");
    const callback = new URL(await callbackFor(browser, authorization));
    const form = new URLSearchParams({ ...Object.fromEntries(callback.searchParams), user: JSON.stringify({ name: { firstName: "Grace", lastName: "Hopper" }, email: person.email }) });
    // Posted from Apple's site: no cookies, another origin.
    const posted = await fetch(callback.origin + callback.pathname, { method: "POST", body: form, headers: { origin: "https://appleid.apple.com" }, redirect: "manual" });
    expect(posted.status).toBe(302);
    const landed = await followRedirects(stack, browser, new URL(posted.headers.get("location") ?? "").href);
    expect(landed.pathname).toBe("/dashboard");
    const { data } = await browser.client.getSession();
    expect(data?.user).toMatchObject({ email: person.email, name: "Grace Hopper", emailVerified: true });
  });

  it("sends a posted answer too large to pass on in a redirect to the error page, rather than into a header no client reads", async () => {
    const posted = (path: string, body: Record<string, string>) =>
      fetch(`${stack.gateway.url}/api/auth/callback/${path}`, { method: "POST", body: new URLSearchParams(body), headers: { origin: "https://appleid.apple.com" }, redirect: "manual" });
    for (const answer of [await posted("[".repeat(5000), {}), await posted("apple", { code: "c", user: "[".repeat(100_000) })]) {
      expect(answer.status).toBe(302);
      expect(answer.headers.get("location")).toBe(`${PUBLIC_URL}/api/auth/error?error=invalid_callback_request`);
    }
  });

  it("keeps provider tokens only sealed, and hands them out through get-access-token", async () => {
    const person = nextPerson();
    const browser = stack.browser();
    await signInThroughProvider(stack, browser, "google");
    const row = await accountRow("google", person.id);
    const { data: accounts } = await browser.client.listAccounts();
    const { data: tokens } = await browser.client.getAccessToken({ accountId: accounts?.[0]?.id ?? "" });
    expect(tokens?.accessToken).toMatch(/^ey/);
    expect(tokens?.idToken).toMatch(/^ey/);
    const vault = new SecretVault([{ id: VAULT_KEY_ID, key: Buffer.from(vaultKey, "base64") }]);
    for (const [column, plain] of [["access_token", tokens?.accessToken], ["id_token", tokens?.idToken]] as const) {
      const stored = String(row?.[column]);
      expect(stored).toMatch(new RegExp(`^${VAULT_KEY_ID}\\.`));
      expect(stored).not.toContain(plain?.slice(0, 16));
      expect(vault.open(stored)).toBe(plain);
    }
    expect(String(row?.refresh_token)).toMatch(new RegExp(`^${VAULT_KEY_ID}\\.`));
  });
});

describe("the flow's state", () => {
  it("works once: the same callback again sends the browser to start over", async () => {
    nextPerson();
    const browser = stack.browser();
    const callback = await callbackFor(browser, await authorizationRequest(browser));
    expect((await browser.fetch(callback, { redirect: "manual" })).headers.get("location")).toBe("/dashboard");
    expect(await errorOf(browser, callback)).toEqual({ path: "/api/auth/error", error: "please_restart_the_process" });
  });

  it("lives ten minutes", async () => {
    const browser = stack.browser();
    const authorization = await authorizationRequest(browser);
    const state = authorization.searchParams.get("state") ?? "";
    await db()("verifications").where({ identifier: `oauth-state:${hashToken(state)}` }).update({ expires_at: new Date(Date.now() - 1000) });
    expect(await errorOf(browser, await callbackFor(browser, authorization))).toEqual({ path: "/api/auth/error", error: "please_restart_the_process" });
  });

  it("belongs to the browser that began the flow", async () => {
    const browser = stack.browser();
    const callback = await callbackFor(browser, await authorizationRequest(browser));
    // Someone else's browser, lured to the callback: it has no state cookie.
    expect(await errorOf(stack.browser(), callback)).toEqual({ path: "/oops", error: "state_mismatch" });
  });

  it("is needed at all, and so is a code", async () => {
    expect(await errorOf(null, `${stack.gateway.url}/api/auth/callback/google?code=abc`)).toEqual({ path: "/api/auth/error", error: "state_not_found" });
    const browser = stack.browser();
    const authorization = await authorizationRequest(browser);
    const state = authorization.searchParams.get("state") ?? "";
    expect(await errorOf(browser, `${stack.gateway.url}/api/auth/callback/google?state=${state}`)).toEqual({ path: "/oops", error: "no_code" });
  });

  it("passes on a refusal at the provider", async () => {
    const browser = stack.browser();
    const state = (await authorizationRequest(browser)).searchParams.get("state") ?? "";
    const refused = await browser.fetch(`${stack.gateway.url}/api/auth/callback/google?state=${state}&error=access_denied&error_description=User+cancelled`, { redirect: "manual" });
    expect(refused.headers.get("location")).toBe("/oops?error=access_denied&error_description=User+cancelled");
  });

  it("fails the exchange when the PKCE verifier does not match the challenge, or the provider refuses the code", async () => {
    nextPerson();
    const browser = stack.browser();
    const authorization = await authorizationRequest(browser);
    const identifier = `oauth-state:${hashToken(authorization.searchParams.get("state") ?? "")}`;
    const record = await db()("verifications").where({ identifier }).first<{ value: string }>();
    const tampered = { ...(JSON.parse(record?.value ?? "{}") as object), codeVerifier: "x".repeat(128) };
    await db()("verifications").where({ identifier }).update({ value: JSON.stringify(tampered) });
    expect(await errorOf(browser, await callbackFor(browser, authorization))).toEqual({ path: "/oops", error: "invalid_code" });

    const other = stack.browser();
    const callback = await callbackFor(other, await authorizationRequest(other));
    idp.refuseNextCode = true;
    expect(await errorOf(other, callback)).toEqual({ path: "/oops", error: "invalid_code" });
  });

  it("refuses what it cannot trust before any flow starts", async () => {
    const { client } = stack.browser();
    expect((await client.signIn.social({ provider: "twitter" })).error).toMatchObject({ status: 404, code: "PROVIDER_NOT_FOUND", message: "Provider not found" });
    expect((await client.signIn.social({ provider: "google", callbackURL: "https://evil.example/x" })).error).toMatchObject({ status: 403, code: "INVALID_CALLBACK_URL" });
    expect((await client.signIn.social({ provider: "google", callbackURL: "/..//evil.example" })).error).toMatchObject({ status: 403, code: "INVALID_CALLBACK_URL" });
    expect((await client.signIn.social({ provider: "google", errorCallbackURL: "https://evil.example" })).error).toMatchObject({ status: 403, code: "INVALID_ERROR_CALLBACK_URL" });
  });
});

describe("linking accounts", () => {
  async function passwordUser(email: string, verified: boolean): Promise<Browser> {
    const browser = stack.browser();
    await browser.client.signUp.email({ name: "Local", email, password });
    if (verified) await db()("users").where({ email }).update({ email_verified: true });
    return browser;
  }

  it("joins a verified local user with the same address when the provider verified it too", async () => {
    const person = nextPerson();
    const local = await passwordUser(person.email, true);
    const browser = stack.browser();
    expect((await signInThroughProvider(stack, browser, "google")).pathname).toBe("/dashboard");
    const { data: session } = await browser.client.getSession();
    const { data: localSession } = await local.client.getSession();
    expect(session?.user.id).toBe(localSession?.user.id);
    expect((await local.client.listAccounts()).data?.map((account) => account.providerId).sort()).toEqual(["credential", "google"]);
  });

  it("does not join a user with an address the provider did not verify", async () => {
    const unverifiedAtProvider = nextPerson({ emailVerified: false });
    await passwordUser(unverifiedAtProvider.email, true);
    const browser = stack.browser();
    expect((await signInThroughProvider(stack, browser, "discord", { errorCallbackURL: "/oops" })).href).toBe(`${PUBLIC_URL}/oops?error=account_not_linked`);
    // The user's own address need not be verified for a provider that verified it.
    const unverifiedLocal = nextPerson();
    await passwordUser(unverifiedLocal.email, false);
    expect((await signInThroughProvider(stack, stack.browser(), "google")).pathname).toBe("/dashboard");
  });

  it("gives an address held unproven to the person who proves it, taking every other way in from whoever held it", async () => {
    const owner = nextPerson();
    // Microsoft says nothing of verification: anyone can claim the owner's address there first.
    const squatterAtMicrosoft = { ...owner, id: `squatter-${owner.id}` };
    idp.person = squatterAtMicrosoft;
    const squatter = stack.browser();
    await signInThroughProvider(stack, squatter, "microsoft");
    const squatted = (await squatter.client.getSession()).data?.user;
    expect(squatted).toMatchObject({ email: owner.email, emailVerified: false });

    idp.person = owner;
    const browser = stack.browser();
    expect((await signInThroughProvider(stack, browser, "google")).pathname).toBe("/dashboard");
    expect((await browser.client.getSession()).data?.user).toMatchObject({ id: squatted?.id, emailVerified: true });
    expect((await browser.client.listAccounts()).data?.map((account) => account.providerId)).toEqual(["google"]);
    await expect.poll(async () => (await squatter.client.getSession()).data, { timeout: 5_000 }).toBeNull();
    idp.person = squatterAtMicrosoft;
    expect((await signInThroughProvider(stack, stack.browser(), "microsoft", { errorCallbackURL: "/oops" })).href).toBe(`${PUBLIC_URL}/oops?error=account_not_linked`);
  });

  it("joins on a trusted provider's word, and only verified users where that is required", async () => {
    const strict = await startAuthStack({ ...idp.env("google", "discord"), TRUSTED_PROVIDERS: "discord", ACCOUNT_LINKING_REQUIRE_LOCAL_EMAIL_VERIFIED: "true" });
    try {
      const onStrict = async (email: string, verified: boolean) => {
        const browser = strict.browser();
        await browser.client.signUp.email({ name: "Local", email, password });
        if (verified) await strict.auth.context.db("users").where({ email }).update({ email_verified: true });
      };
      const signInOnStrict = async (provider: string) => {
        const browser = strict.browser();
        const { data } = await browser.client.signIn.social({ provider, callbackURL: "/dashboard", errorCallbackURL: "/oops", disableRedirect: true });
        const callback = viaGateway(strict, (await browser.fetch((data as { url: string }).url, { redirect: "manual" })).headers.get("location") ?? "");
        return (await browser.fetch(callback, { redirect: "manual" })).headers.get("location");
      };
      const trusted = nextPerson({ emailVerified: false });
      await onStrict(trusted.email, true);
      expect(await signInOnStrict("discord")).toBe("/dashboard");
      const unverifiedLocal = nextPerson();
      await onStrict(unverifiedLocal.email, false);
      expect(await signInOnStrict("google")).toBe("/oops?error=account_not_linked");
    } finally {
      await strict.stop();
    }
  });

  it("links a provider to the signed-in user, refusing another address or someone else's account, and unlinks it", async () => {
    const person = nextPerson();
    const browser = await passwordUser(person.email, true);
    const { data } = await browser.client.linkSocial({ provider: "github", callbackURL: "/settings/accounts", disableRedirect: true });
    expect((await followRedirects(stack, browser, (data as { url: string }).url)).pathname).toBe("/settings/accounts");
    const { data: accounts } = await browser.client.listAccounts();
    const github = accounts?.find((account) => account.providerId === "github");
    expect(github).toMatchObject({ accountId: person.id, scopes: ["dummy"] });

    const stranger = await passwordUser(`stranger${people}@example.com`, true);
    const linkFor = async (who: Browser) => {
      const { data: flow } = await who.client.linkSocial({ provider: "github", callbackURL: "/settings/accounts", errorCallbackURL: "/settings/accounts", disableRedirect: true });
      return (await followRedirects(stack, who, (flow as { url: string }).url)).searchParams.get("error");
    };
    expect(await linkFor(stranger)).toBe("email_does_not_match");
    // The same GitHub account, now telling the stranger's address: it is someone else's already.
    idp.person = { ...person, email: `stranger${people}@example.com` };
    expect(await linkFor(stranger)).toBe("account_already_linked_to_different_user");

    expect((await browser.client.unlinkAccount({ accountId: github?.id ?? "" })).data).toEqual({ status: true });
    const credential = (await browser.client.listAccounts()).data?.[0];
    expect((await browser.client.unlinkAccount({ accountId: credential?.id ?? "" })).error).toMatchObject({ status: 400, code: "FAILED_TO_UNLINK_LAST_ACCOUNT", message: "You can't unlink your last account" });
  });

  it("signs nobody up where sign-up is off, and only on request where it is asked for", async () => {
    const closed = await startAuthStack({ ...idp.env("google", "github"), SOCIAL_SIGN_UP_DISABLED: "google", SOCIAL_SIGN_UP_ON_REQUEST_ONLY: "github" });
    try {
      nextPerson();
      const browser = closed.browser();
      const viaClosed = async (provider: string, options: Record<string, unknown> = {}) => {
        const { data } = await browser.client.signIn.social({ provider, callbackURL: "/dashboard", errorCallbackURL: "/oops", disableRedirect: true, ...options });
        const callback = viaGateway(closed, (await browser.fetch((data as { url: string }).url, { redirect: "manual" })).headers.get("location") ?? "");
        return (await browser.fetch(callback, { redirect: "manual" })).headers.get("location");
      };
      expect(await viaClosed("google")).toBe("/oops?error=signup_disabled");
      expect(await viaClosed("github")).toBe("/oops?error=signup_disabled");
      expect(await viaClosed("github", { requestSignUp: true })).toBe("/dashboard");
    } finally {
      await closed.stop();
    }
  });
});

describe("ID-token sign-in", () => {
  const googleClaims = (person: LocalIdentityProvider["person"], extra: Record<string, unknown> = {}) => ({
    iss: "https://accounts.google.com",
    aud: "google-client",
    sub: person.id,
    email: person.email,
    email_verified: true,
    name: person.name,
    ...extra,
  });

  it("signs in with a valid token, checking its nonce", async () => {
    const person = nextPerson();
    const token = await idp.idToken(googleClaims(person, { nonce: "n-0S6_WzA2Mj" }));
    const browser = stack.browser();
    const wrongNonce = await browser.client.signIn.social({ provider: "google", idToken: { token, nonce: "another" } });
    expect(wrongNonce.error).toMatchObject({ status: 401, code: "INVALID_TOKEN", message: "Invalid token" });
    const { data, error } = await browser.client.signIn.social({ provider: "google", idToken: { token, nonce: "n-0S6_WzA2Mj" } });
    expect(error).toBeNull();
    expect(data).toMatchObject({ redirect: false, user: { email: person.email, emailVerified: true } });
    expect(data && "token" in data ? data.token : null).toMatch(/^[A-Za-z0-9]{32}$/);
    expect((await browser.client.getSession()).data?.user.email).toBe(person.email);
  });

  it("refuses an expired token, one signed by another key, one for another audience, and a provider without ID tokens", async () => {
    const person = nextPerson();
    const { client } = stack.browser();
    const expired = await idp.idToken(googleClaims(person, { iat: Math.floor(Date.now() / 1000) - 7200 }), -3600);
    const { privateKey } = await generateKeyPair("RS256");
    const forged = await new SignJWT(googleClaims(person)).setProtectedHeader({ alg: "RS256", kid: "forged" }).setIssuedAt().setExpirationTime("10m").sign(privateKey);
    const elsewhere = await idp.idToken(googleClaims(person, { aud: "someone-elses-client" }));
    for (const token of [expired, forged, elsewhere, "not a token"]) {
      expect((await client.signIn.social({ provider: "google", idToken: { token } })).error).toMatchObject({ status: 401, code: "INVALID_TOKEN" });
    }
    const github = await client.signIn.social({ provider: "github", idToken: { token: elsewhere } });
    expect(github.error).toMatchObject({ status: 404, code: "ID_TOKEN_NOT_SUPPORTED", message: "id_token not supported" });
  });

  it("accepts Microsoft tokens only from the tenant they name", async () => {
    const person = nextPerson();
    const { client } = stack.browser();
    const claims = { aud: "microsoft-client", oid: person.id, sub: "pairwise", email: person.email, name: person.name };
    const foreign = await idp.idToken({ ...claims, tid: TENANT_ID, iss: "https://login.example/other/v2.0" });
    expect((await client.signIn.social({ provider: "microsoft", idToken: { token: foreign } })).error).toMatchObject({ status: 401, code: "INVALID_TOKEN" });
    const token = await idp.idToken({ ...claims, tid: TENANT_ID, iss: `${idp.url}/${TENANT_ID}/v2.0` });
    expect((await client.signIn.social({ provider: "microsoft", idToken: { token } })).data).toMatchObject({ user: { email: person.email } });
  });
});

describe("provider tokens", () => {
  it("refreshes on demand and when the access token is about to expire", async () => {
    nextPerson();
    const browser = stack.browser();
    await signInThroughProvider(stack, browser, "google");
    const accountId = (await browser.client.listAccounts()).data?.[0]?.id ?? "";
    const before = await browser.client.getAccessToken({ accountId });

    const refreshed = await browser.client.refreshToken({ accountId });
    expect(refreshed.error).toBeNull();
    expect(refreshed.data).toMatchObject({ providerId: "google", accountId });
    expect(refreshed.data?.accessToken).toMatch(/^ey/);
    expect(refreshed.data?.refreshToken).toMatch(/\S/);
    expect(refreshed.data?.accessToken).not.toBe(before.data?.accessToken);

    await db()("accounts").where({ id: accountId }).update({ access_token_expires_at: new Date(Date.now() + 2000) });
    const renewed = await browser.client.getAccessToken({ accountId });
    expect(renewed.data?.accessToken).not.toBe(refreshed.data?.accessToken);
    expect(new Date(renewed.data?.accessTokenExpiresAt ?? 0).getTime()).toBeGreaterThan(Date.now() + 60_000);
  });

  it("says so for a provider that cannot refresh, and for accounts that are not a provider's", async () => {
    const person = nextPerson();
    const browser = stack.browser();
    const token = await idp.idToken({ iss: "https://www.facebook.com", aud: "facebook-client", sub: person.id, email: person.email, name: person.name });
    expect((await browser.client.signIn.social({ provider: "facebook", idToken: { token } })).error).toBeNull();
    const facebook = (await browser.client.listAccounts()).data?.[0]?.id ?? "";
    expect((await browser.client.refreshToken({ accountId: facebook })).error).toMatchObject({
      status: 400,
      code: "TOKEN_REFRESH_NOT_SUPPORTED",
      message: "Provider facebook does not support token refreshing.",
    });

    const local = stack.browser();
    await local.client.signUp.email({ name: "Local", email: `local${people}@example.com`, password });
    const credential = (await local.client.listAccounts()).data?.[0]?.id ?? "";
    expect((await local.client.getAccessToken({ accountId: credential })).error).toMatchObject({ status: 400, code: "PROVIDER_NOT_SUPPORTED", message: "Provider credential is not supported." });
    expect((await local.client.getAccessToken({ accountId: facebook })).error).toMatchObject({ status: 400, code: "ACCOUNT_NOT_FOUND" });
    expect((await stack.browser().client.getAccessToken({ accountId: facebook })).error).toMatchObject({ status: 401 });
  });
});

describe("the providers on offer", () => {
  it("lists just the configured ones", async () => {
    const response = await fetch(`${stack.gateway.url}/api/auth/social-providers`);
    expect(await response.json()).toEqual({
      providers: [
        { id: "apple", name: "Apple" },
        { id: "discord", name: "Discord" },
        { id: "facebook", name: "Facebook" },
        { id: "github", name: "GitHub" },
        { id: "microsoft", name: "Microsoft" },
        { id: "google", name: "Google" },
      ],
    });
  });
});
