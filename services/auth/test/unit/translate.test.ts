import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { testCatalogs } from "../../../../test/i18n-catalogs.js";
import { LOCALES } from "../../src/i18n/locales.js";
import { translate } from "../../src/i18n/translate.js";

describe("the auth service's catalogs", () => {
  testCatalogs({
    dir: fileURLToPath(new URL("../../src/i18n/locales", import.meta.url)),
    locales: LOCALES,
    // "Error" is Spanish too.
    sameAsEnglish: { es: ["errorPage.title"] },
  });
});

describe("translate", () => {
  it("gives each number its language's plural form", () => {
    const footnote = (hours: number) => translate("pl", "mail.verifyEmail.footnote", { hours });
    expect(footnote(1)).toContain("przez godzinę.");
    expect(footnote(2)).toContain("przez 2 godziny.");
    expect(footnote(5)).toContain("przez 5 godzin.");
    expect(translate("ru", "mail.deleteAccount.footnote", { hours: 24 })).toContain("действует 24 часа.");
  });

  it("writes moments in UTC, as the language writes dates", () => {
    const expiresAt = new Date("2026-03-01T23:30:00Z");
    const values = { inviter: "Ann", organization: "Acme", expiresAt };
    expect(translate("de", "mail.invitation.footnote", values)).toContain("bis zum 1. März 2026, 23:30 Uhr (UTC).");
    expect(translate("en", "mail.invitation.footnote", values)).toContain("until March 1, 2026, 11:30 PM (UTC).");
  });
});
