import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TYPE } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { readCatalog, testCatalogs } from "../../test/i18n-catalogs";
import { chooseLocale } from "../src/i18n/choice";
import { LOCALES } from "../src/i18n/index";
import { pseudoLocalize } from "../src/i18n/pseudo";

const WEB = fileURLToPath(new URL("..", import.meta.url));
const LOCALES_DIR = join(WEB, "src/i18n/locales");

/** Reviewed: the same word in the language (or a code), not English left over. */
const SAME_AS_ENGLISH: Record<string, string[]> = {
  ru: ["checkout.cvc"],
  uk: ["checkout.cvc"],
  es: ["checkout.cvc", "checkout.summary.subtotal", "checkout.summary.total", "checkout.total", "seller.order.answer.no", "seller.space.webhooks", "seller.start.webhookAction", "seller.webhooks.title"],
  de: ["account.passkeys.title", "account.passkeys.unnamed", "account.profile.name", "admin.field.name", "admin.users.status", "auth.field.name", "checkout.name", "checkout.optional", "organizations.field.name", "organizations.invitations.team", "organizations.teams.title", "portal.billing.optional", "seller.productForm.optional", "seller.settings.tab.teams", "seller.space.webhooks", "seller.start.webhookAction", "seller.webhooks.title"],
  pl: ["admin.field.email", "auth.field.email", "checkout.cvc", "checkout.email", "organizations.field.email", "seller.space.menu"],
  fr: ["admin.field.email", "admin.user.sessions.title", "auth.field.email", "checkout.email", "checkout.summary.total", "organizations.field.email", "organizations.invitation.title", "organizations.invitations.title", "seller.accessTokens.column.actions", "seller.licenseKey.activations", "seller.newProduct.about", "seller.productForm.about", "seller.space.menu", "seller.space.webhooks", "seller.start.webhookAction", "seller.webhooks.title", "ui.pager.label"],
  tr: ["checkout.cvc"],
};

describe("message catalogs", () => {
  testCatalogs({ dir: LOCALES_DIR, locales: LOCALES, sameAsEnglish: SAME_AS_ENGLISH });

  it("has the English catalog the code's messages extract to", () => {
    const out = join(mkdtempSync(join(tmpdir(), "i18n-")), "en.json");
    execFileSync(join(WEB, "../node_modules/.bin/formatjs"), ["extract", "src/**/*.{ts,tsx}", "--out-file", out, "--format", "simple"], { cwd: WEB });
    expect(readCatalog(out), "run `npm run i18n:extract -w @tollgate/web`").toEqual(readCatalog(join(LOCALES_DIR, "en.json")));
  });

  it("makes the pseudo-locale accented, longer and with the same arguments", () => {
    const pseudo = pseudoLocalize("Invitation sent to {email}.");
    const literal = pseudo.map((element) => (element.type === TYPE.literal ? element.value : `{${element.type === TYPE.argument ? element.value : ""}}`)).join("");
    expect(literal).toMatch(/^\[Îñṽîţàţîöñ šéñţ ţö \{email\}\. ~+\]$/);
    expect(literal.length).toBeGreaterThan("Invitation sent to {email}.".length * 1.3);
  });
});

describe("choice of language", () => {
  it("takes the address's, then the page's, the signed-in user's, this browser's stored one, the browser's languages, then English", () => {
    expect(chooseLocale({ query: "en-XA", page: "de", stored: "fr" })).toBe("en-XA");
    expect(chooseLocale({ query: "xx", page: "de-AT", user: "pl", stored: "fr" })).toBe("de");
    expect(chooseLocale({ stored: "fr", user: "pl", browser: ["tr"] })).toBe("pl");
    expect(chooseLocale({ stored: "fr", user: null, browser: ["tr"] })).toBe("fr");
    expect(chooseLocale({ browser: ["nl-NL", "uk-UA", "ru"] })).toBe("uk");
    expect(chooseLocale({ browser: ["nl", "ja"] })).toBe("en");
  });
});
