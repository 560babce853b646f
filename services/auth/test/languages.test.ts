import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService } from "@tollgate/kit/testing";
import { organizationService } from "../../organization/src/service.js";
import { linkTo, startSmtpCatcher, type SmtpCatcher } from "../../../test/stacks/smtp-catcher.js";
import { ROOT_ADMIN, signInRootAdmin, startAuthStack, type AuthStack, type Browser } from "../../../test/stacks/auth.js";

const password = "correct horse battery staple";

let smtp: SmtpCatcher;
/** Signed in at sign-up, with the real organization service for invitations, and ROOT_ADMIN a platform admin. */
let open: AuthStack;
/** Verification required: sign-up mails a link instead of signing in. */
let strict: AuthStack;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  [open, strict] = await Promise.all([
    startAuthStack({ SMTP_URL: smtp.url, ADMIN_USER_IDS: ROOT_ADMIN.id }, {}, { organization: (environment) => startTestService(organizationService, environment) }),
    startAuthStack({ SMTP_URL: smtp.url, REQUIRE_EMAIL_VERIFICATION: "true" }),
  ]);
});

afterAll(async () => {
  await Promise.all([open?.stop(), strict?.stop()]);
  await smtp?.close();
});

/** Signed up and signed in on the open stack, with a saved language or none. */
async function signedUp(email: string, locale?: string): Promise<Browser> {
  const browser = open.browser();
  const { error } = await browser.client.signUp.email({ name: email.split("@")[0] ?? email, email, password, locale });
  if (error) throw new Error(`sign-up failed: ${JSON.stringify(error)}`);
  return browser;
}

const savedLocale = async (browser: Browser) => (await browser.client.getSession()).data?.user.locale;

describe("the user's language with better-auth's client", () => {
  it("is null until chosen, and is set at sign-up or with update-user", async () => {
    const nobody = open.browser();
    const { data } = await nobody.client.signUp.email({ name: "Nadia", email: "nadia@languages.example", password });
    expect(data?.user.locale).toBeNull();
    expect(await savedLocale(nobody)).toBeNull();

    const chosen = open.browser();
    const signUp = await chosen.client.signUp.email({ name: "Jakub", email: "jakub@languages.example", password, locale: "pl" });
    expect(signUp.data?.user.locale).toBe("pl");
    expect(await savedLocale(chosen)).toBe("pl");

    expect((await nobody.client.updateUser({ locale: "uk" })).data).toEqual({ status: true });
    expect(await savedLocale(nobody)).toBe("uk");
    expect((await nobody.client.updateUser({ locale: null })).error).toBeNull();
    expect(await savedLocale(nobody)).toBeNull();

    const signIn = await open.browser().client.signIn.email({ email: "jakub@languages.example", password });
    expect(signIn.data?.user.locale).toBe("pl");
  });

  it("refuses a language the product does not have, in better-auth's error shape", async () => {
    const browser = await signedUp("klingon@languages.example", "de");
    const update = await browser.client.updateUser({ locale: "tlh" });
    expect(update.error).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    expect(await savedLocale(browser)).toBe("de");

    const signUp = await open.browser().client.signUp.email({ name: "X", email: "x@languages.example", password, locale: "en-US" });
    expect(signUp.error).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
  });
});

describe("the user's language for an admin", () => {
  it("is set when creating or changing a user, and listed with them", async () => {
    const root = await signInRootAdmin(open);
    const created = await root.client.admin.createUser({ email: "farid@languages.example", password, name: "Farid", data: { locale: "tr" } });
    expect(created.data?.user).toMatchObject({ email: "farid@languages.example", locale: "tr" });
    const userId = created.data?.user.id ?? "";
    expect((await root.client.admin.updateUser({ userId, data: { locale: "uk" } })).data).toMatchObject({ id: userId, locale: "uk" });
    expect((await root.client.admin.updateUser({ userId, data: { locale: "Ukrainian" } })).error).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    const listed = await root.client.admin.listUsers({ query: { searchField: "email", searchValue: "farid@languages.example" } });
    expect(listed.data?.users).toEqual([expect.objectContaining({ id: userId, locale: "uk" })]);
  });
});

describe("mail in the recipient's language", () => {
  it("sends a password reset in the user's saved language, in the text, the HTML and the subject", async () => {
    await signedUp("greta@languages.example", "de");
    // The saved choice wins over the language the request asks for.
    await open.browser().client.requestPasswordReset({ email: "greta@languages.example", redirectTo: "/reset" }, { headers: { "accept-language": "fr" } });
    const mail = await smtp.next("greta@languages.example");
    expect(mail.subject).toBe("Setzen Sie Ihr Passwort zurück");
    expect(mail.text).toContain("Jemand hat angefordert, das Passwort Ihres Kontos zurückzusetzen.");
    expect(mail.text).toContain("Neues Passwort wählen: http://localhost:3000/api/auth/reset-password/");
    expect(mail.text).toContain("Der Link funktioniert einmal und ist eine Stunde lang gültig.");
    expect(mail.html).toContain('<html lang="de">');
    expect(mail.html).toContain(`href="${linkTo(mail, "/api/auth/reset-password/")}"`);
    expect(mail.html).toContain(">Neues Passwort wählen</a>");
  });

  it("verifies a new address in the language the sign-up request asks for", async () => {
    const { client } = strict.browser();
    await client.signUp.email({ name: "Oleg", email: "oleg@languages.example", password }, { headers: { "accept-language": "nl-NL, ru;q=0.9, en;q=0.8" } });
    const mail = await smtp.next("oleg@languages.example");
    expect(mail.subject).toBe("Подтвердите адрес электронной почты");
    expect(mail.text).toContain("Подтвердить адрес: http://localhost:3000/api/auth/verify-email?token=");
    expect(mail.text).toContain("Ссылка действует один час.");
    expect(mail.html).toContain('<html lang="ru">');
  });

  it("verifies in the language chosen at sign-up over the request's, and in English when neither names one of ours", async () => {
    await strict.browser().client.signUp.email({ name: "Ayşe", email: "ayse@languages.example", password, locale: "tr" }, { headers: { "accept-language": "ru" } });
    expect((await smtp.next("ayse@languages.example")).subject).toBe("E-posta adresinizi doğrulayın");

    await strict.browser().client.signUp.email({ name: "Joop", email: "joop@languages.example", password }, { headers: { "accept-language": "nl" } });
    const english = await smtp.next("joop@languages.example");
    expect(english.subject).toBe("Verify your e-mail address");
    expect(english.html).toContain('<html lang="en">');
  });

  it("invites a stranger in the inviter's language, and someone with an account in their own", async () => {
    const inviter = await signedUp("zofia@languages.example", "pl");
    await signedUp("emre@languages.example", "tr");
    const { data: organization } = await inviter.client.organization.create({ name: "Kraków Rockets", slug: "krakow-rockets" });
    if (!organization) throw new Error("no organization");

    const invitation = await inviter.client.organization.inviteMember({ email: "stranger@languages.example", role: "member", organizationId: organization.id });
    const expiresAt = new Date(invitation.data?.expiresAt ?? 0);
    const stranger = await smtp.next("stranger@languages.example");
    expect(stranger.subject).toBe("Dołącz do organizacji Kraków Rockets w Tollgate");
    expect(stranger.text).toContain("zofia zaprasza Cię do organizacji Kraków Rockets.");
    expect(stranger.text).toContain(`Zaproszenie jest ważne do ${expiresAt.toLocaleDateString("pl", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" })}`);
    expect(stranger.html).toContain('<html lang="pl">');

    await inviter.client.organization.inviteMember({ email: "emre@languages.example", role: "member", organizationId: organization.id });
    const member = await smtp.next("emre@languages.example");
    expect(member.subject).toBe("Tollgate'te Kraków Rockets kuruluşuna katılın");
    expect(member.html).toContain('<html lang="tr">');
  });
});

describe("the error page", () => {
  const errorPage = (browser: Pick<Browser, "fetch"> | null, headers: Record<string, string> = {}) =>
    (browser?.fetch ?? fetch)(`${open.gateway.url}/api/auth/error?error=INVALID_TOKEN`, { headers });

  it("is in the language the browser asks for, with the error code as it is", async () => {
    const response = await errorPage(null, { "accept-language": "fr-CA,fr;q=0.9" });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain("<h1>Une erreur s’est produite</h1>");
    expect(html).toContain("Code d’erreur : <code>INVALID_TOKEN</code>");
    expect(html).toContain(">Revenir à l’application</a>");
  });

  it("is in English for a browser that asks for none of the product's languages", async () => {
    const html = await (await errorPage(null, { "accept-language": "ja" })).text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("<h1>Something went wrong</h1>");
  });

  it("is in the signed-in user's saved language whatever the browser asks for", async () => {
    const browser = await signedUp("lucia@languages.example", "es");
    const html = await (await errorPage(browser, { "accept-language": "fr" })).text();
    expect(html).toContain('<html lang="es">');
    expect(html).toContain("<h1>Algo ha salido mal</h1>");
  });
});
