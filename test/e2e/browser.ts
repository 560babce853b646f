import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { AxeBuilder } from "@axe-core/playwright";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { createIntl, type IntlShape } from "react-intl";
import { expect } from "vitest";
import { watch } from "@tollgate/kit/testing";
import { repository, startTollgate, type RunningTollgate } from "../stacks/tollgate.js";

/**
 * What the browser tests share: one stack and one Chromium per test file, people with pages in a
 * language, and the steps every test takes (sign up, open a shop, pay), found by the words of the
 * page's own language, so the same steps run in each of them.
 */

/** Debian's chromium; the test installs nothing itself (.ci/run does). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const ARTIFACTS = path.join(repository, "web", "test-artifacts");
export const password = "correct horse battery staple";
const LOCALES_DIR = path.join(repository, "web", "src", "i18n", "locales");

export type Catalog = Record<string, string>;
const readCatalog = (locale: string): Catalog => JSON.parse(readFileSync(path.join(LOCALES_DIR, `${locale}.json`), "utf8")) as Catalog;
export const english = readCatalog("en");

/** A message of a language, by its catalog id, with its arguments: what the page shows for it. */
export type Say = (id: string, values?: Record<string, string | number>) => string;

const intls = new Map<string, IntlShape>();
function intlOf(locale: string): IntlShape {
  let intl = intls.get(locale);
  if (!intl) {
    // A browser may ask for a language of a region ("de-DE"): its words are the language's.
    const language = locale.split("-")[0] ?? locale;
    const messages = language === "en" ? english : readCatalog(language);
    intl = createIntl({ locale, defaultLocale: "en", messages, onError: () => undefined });
    intls.set(locale, intl);
  }
  return intl;
}

/** The messages of a shipped language (the pseudo-locale has no catalog file to read them from). */
export function sayIn(locale: string): Say {
  return (id, values) => {
    if (!(id in english)) throw new Error(`no message ${id} in the English catalog`);
    return intlOf(locale).formatMessage({ id, defaultMessage: english[id] }, values);
  };
}

/** The catalog a language shows, message by message (English for the pseudo-locale's source). */
export const catalogOf = (locale: string): Catalog => (locale === "en" ? english : readCatalog(locale));

let tollgate: RunningTollgate;
let browser: Browser;
/** The site's public address: cookie-carrying requests must come from it. */
export let site: string;
/** A platform admin's page: only admins may read the development mailbox. */
let operator: Page;

/** Every page the test opened, for a screenshot of each if the test fails. */
const opened: Page[] = [];
/** The language each person's browser asks for. */
const languages = new WeakMap<Page, string>();

/** The stack (with the development mailbox) and Chromium, started together; an admin to read the mailbox. */
export const startBrowsing = (): Promise<RunningTollgate> => startBrowsingWith({});

/** As startBrowsing, with settings of the test's own on top (webhook endpoints on this machine, say). */
export async function startBrowsingWith(env: Record<string, string>): Promise<RunningTollgate> {
  mkdirSync(ARTIFACTS, { recursive: true });
  [tollgate, browser] = await Promise.all([
    startTollgate({ RATE_LIMIT_ENABLED: "false", DEV_MAILBOX: "true", ...env }),
    chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
    }),
  ]);
  site = `http://localhost:${new URL(tollgate.url).port}`;
  ({ page: operator } = await newPerson());
  await signUp(operator, "Operator", `operator-${Date.now()}@example.com`);
  expect(await grantAdmin(await emailOf(operator))).toBe(0);
  return tollgate;
}

export async function stopBrowsing(): Promise<void> {
  await browser?.close();
  await tollgate?.stop();
}

export interface Person {
  context: BrowserContext;
  page: Page;
  /** The messages of the language the person's browser asks for. */
  say: Say;
}

interface PersonOptions {
  /** The language the browser asks for (Accept-Language and navigator.languages). */
  locale?: string;
  viewport?: { width: number; height: number };
  /** Someone already signed in, whose session this browser takes over. */
  signedInAs?: Person;
}

/** A new browser profile. */
export async function newPerson(options: PersonOptions = {}): Promise<Person> {
  const locale = options.locale ?? "en";
  const storageState = await options.signedInAs?.context.storageState();
  const context = await browser.newContext({ baseURL: site, locale, viewport: options.viewport, storageState });
  const page = await context.newPage();
  opened.push(page);
  languages.set(page, locale);
  return { context, page, say: sayIn(locale) };
}

/** The messages of the language `page` asks for. */
export const sayOn = (page: Page): Say => sayIn(languages.get(page) ?? "en");

/** What each open page showed when a test failed. */
export async function screenshotFailure(): Promise<void> {
  for (const [index, page] of opened.entries()) {
    if (!page.isClosed()) await page.screenshot({ path: path.join(ARTIFACTS, `failure-${index + 1}.png`), fullPage: true }).catch(() => undefined);
  }
}

/** No serious or critical accessibility violation on the screen as it stands; a screenshot of it kept. */
export async function checkScreen(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  expect(serious.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`), name).toEqual([]);
}

const emailOf = async (page: Page) => ((await (await page.request.get("/api/auth/get-session")).json()) as { user: { email: string } }).user.email;

export async function signUp(page: Page, name: string, email: string): Promise<void> {
  const say = sayOn(page);
  await page.goto("/sign-up");
  await page.getByLabel(say("auth.field.name"), { exact: true }).fill(name);
  await page.getByLabel(say("auth.field.email"), { exact: true }).fill(email);
  await page.getByLabel(say("auth.field.password"), { exact: true }).fill(password);
  await page.getByLabel(say("auth.field.repeatPassword")).fill(password);
  await page.getByRole("button", { name: say("auth.signUp.submit") }).click();
  await page.getByRole("heading", { name: say("home.organizations.title") }).waitFor();
}

export async function signIn(page: Page, identifier: string): Promise<void> {
  const say = sayOn(page);
  await page.goto("/sign-in");
  await page.getByLabel(say("auth.signIn.identifier")).fill(identifier);
  await page.getByLabel(say("auth.field.password")).fill(password);
  await page.getByRole("button", { name: say("auth.signIn.submit"), exact: true }).click();
}

/** The operator's page, on the development mailbox. */
export async function openMailbox(): Promise<Page> {
  await operator.goto("/dev/mailbox");
  return operator;
}

/** The newest link in the development mailbox to `to` whose path starts with `pathPrefix`, as the page shows the operator. */
export async function mailedLink(to: string, pathPrefix: string): Promise<string> {
  const mailbox = await openMailbox();
  // The operator reads the mailbox in English.
  const mail = mailbox.locator("li.mail", { hasText: `to ${to}`, has: mailbox.locator(`a[href^="${pathPrefix}"]`) }).first();
  await mail.waitFor();
  const href = await mail.locator(`a[href^="${pathPrefix}"]`).first().getAttribute("href");
  if (!href) throw new Error(`no ${pathPrefix} link in the mail to ${to}`);
  return href;
}

/** The text of the newest mail to `to` in the development mailbox whose subject is `subject`. */
export async function mailedText(to: string, subject: string): Promise<string> {
  const mailbox = await openMailbox();
  const mail = mailbox.locator("li.mail", { hasText: `to ${to}`, has: mailbox.getByText(subject, { exact: true }) }).first();
  await mail.waitFor();
  return (await mail.locator("pre.mail-text").textContent()) ?? "";
}

export function grantAdmin(email: string): Promise<number | null> {
  const cli = watch(spawn("npm", ["run", "admin", "--", "grant", email], { cwd: repository, env: { ...process.env, ...tollgate.environment.env, DATABASE_URL: tollgate.databaseUrl } }));
  return cli.exited.then(({ code }) => code);
}

/** A seller's backend: calls /v1 with the shop's access token (a POST when given a body). */
export type ShopApi = <Result>(path: string, body?: unknown) => Promise<Result>;

/** A seller's shop: the signed-in person on `page` creates an organization and a backend token for it. */
export async function openShop(page: Page, name: string, slug: string, scopes: string[]): Promise<{ organizationId: string; api: ShopApi }> {
  const created = await page.request.post("/api/auth/organization/create", { headers: { origin: site }, data: { name, slug } });
  const organizationId = ((await created.json()) as { id: string }).id;
  return { organizationId, api: await shopApi(page, organizationId, scopes) };
}

/** An access token with `scopes` for the organization's backend, made by the signed-in member on `page`. */
export async function shopApi(page: Page, organizationId: string, scopes: string[]): Promise<ShopApi> {
  // Billing learns of the organization from the bus; until then it refuses a token for it.
  let token = "";
  for (let attempt = 0; attempt < 50 && !token; attempt++) {
    const made = await page.request.post("/v1/organization-access-tokens/", { headers: { origin: site }, data: { organization_id: organizationId, comment: "shop backend", scopes } });
    if (made.status() === 201) token = ((await made.json()) as { token: string }).token;
    else await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return async <Result>(path: string, body?: unknown): Promise<Result> => {
    const response = await fetch(`${tollgate.url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.ok, `${path}: ${response.status} ${response.ok ? "" : await response.clone().text()}`).toBe(true);
    return (await response.json()) as Result;
  };
}

/** The organization's id, as a signed-in member's page reads it from better-auth. */
export async function organizationIdOf(page: Page, slug: string): Promise<string> {
  const response = await page.request.get(`/api/auth/organization/get-full-organization?organizationSlug=${slug}`);
  return ((await response.json()) as { id: string }).id;
}

/** A card expiry a year ahead, as the form asks for it (MM/YY). */
export const nextYearExpiry = () => `12/${String((new Date().getUTCFullYear() + 1) % 100).padStart(2, "0")}`;

/**
 * Picks `code`'s country on the hosted checkout as a buyer does: types its name in the page's
 * language (as the page's own Intl names it) and chooses it from the list.
 */
export async function chooseCountry(page: Page, code: string): Promise<void> {
  // Written as a script: the test's own types know no DOM.
  const name = await page.evaluate<string>(`new Intl.DisplayNames([document.documentElement.lang], { type: "region" }).of(${JSON.stringify(code.toUpperCase())})`);
  await page.locator("input[autocomplete=country-name]").fill(name);
  await page.getByRole("option", { name, exact: true }).click();
}

/** Fills the hosted checkout open on `page` for a buyer in `country`, with `card` when one is asked for, in the words of `say`. */
export async function fillCheckout(page: Page, say: Say, buyer: { email?: string; country: string; card?: string }): Promise<void> {
  // No e-mail for a checkout made for a known customer: the page shows theirs, locked.
  if (buyer.email) await page.getByLabel(say("checkout.email")).fill(buyer.email);
  await chooseCountry(page, buyer.country);
  if (!buyer.card) return;
  await page.getByLabel(say("checkout.cardNumber")).fill(buyer.card);
  await page.getByLabel(say("checkout.expiry")).fill(nextYearExpiry());
  await page.getByLabel(say("checkout.cvc")).fill("123");
}

