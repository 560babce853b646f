import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { chooseLocale } from "../src/i18n/choice";
import { LOCALES } from "../src/i18n/index";
import { pseudoLocalize } from "../src/i18n/pseudo";

const WEB = fileURLToPath(new URL("..", import.meta.url));
const LOCALES_DIR = join(WEB, "src/i18n/locales");
const readCatalog = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, string>;
const english = readCatalog(join(LOCALES_DIR, "en.json"));
const translations = LOCALES.filter((locale) => locale !== "en").map((locale) => [locale, readCatalog(join(LOCALES_DIR, `${locale}.json`))] as const);

/**
 * Messages that read the same in a language as in English, reviewed: names, codes and words the
 * language borrows as they are. Keyed by locale, then message id.
 */
const SAME_AS_ENGLISH: Record<string, string[]> = {};

interface Shape {
  /** Every argument and tag name the message uses. */
  names: Set<string>;
  /** The option keys of each plural in the message. */
  plurals: string[][];
}

function shapeOf(elements: MessageFormatElement[], shape: Shape = { names: new Set(), plurals: [] }): Shape {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    shape.names.add(element.value);
    if (element.type === TYPE.plural) shape.plurals.push(Object.keys(element.options));
    if (element.type === TYPE.plural || element.type === TYPE.select) for (const option of Object.values(element.options)) shapeOf(option.value, shape);
    if (element.type === TYPE.tag) shapeOf(element.children, shape);
  }
  return shape;
}

const wordsIn = (message: string) => message.replace(/\{[^{}]*\}/g, " ").split(/\s+/).filter(Boolean).length;

describe("message catalogs", () => {
  it("ships every language", () => {
    expect(readdirSync(LOCALES_DIR).sort()).toEqual(LOCALES.map((locale) => `${locale}.json`).sort());
  });

  it("has the English catalog the code's messages extract to", () => {
    const out = join(mkdtempSync(join(tmpdir(), "i18n-")), "en.json");
    execFileSync(join(WEB, "../node_modules/.bin/formatjs"), ["extract", "src/**/*.{ts,tsx}", "--out-file", out, "--format", "simple"], { cwd: WEB });
    expect(readCatalog(out), "run `npm run i18n:extract -w @tollgate/web`").toEqual(english);
  });

  it.each(translations)("%s has exactly the English keys", (_, catalog) => {
    expect(Object.keys(catalog).sort()).toEqual(Object.keys(english).sort());
  });

  it.each(translations)("%s: every message parses, keeps its arguments and has its plural forms", (locale, catalog) => {
    const required = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
    const problems: string[] = [];
    for (const [id, source] of Object.entries(english)) {
      const translated = catalog[id];
      if (translated === undefined) continue;
      let shape: Shape;
      try {
        shape = shapeOf(parse(translated));
      } catch (error) {
        problems.push(`${id}: does not parse (${String(error)})`);
        continue;
      }
      const missing = [...shapeOf(parse(source)).names].filter((name) => !shape.names.has(name));
      if (missing.length > 0) problems.push(`${id}: drops ${missing.join(", ")}`);
      for (const options of shape.plurals) {
        const absent = required.filter((category) => !options.includes(category));
        if (absent.length > 0) problems.push(`${id}: a plural lacks ${absent.join(", ")}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.each(translations)("%s translates every message longer than three words", (locale, catalog) => {
    const allowed = new Set(SAME_AS_ENGLISH[locale] ?? []);
    const untranslated = Object.entries(english)
      .filter(([id, message]) => wordsIn(message) > 3 && catalog[id] === message && !allowed.has(id))
      .map(([id]) => id);
    expect(untranslated).toEqual([]);
  });

  it("makes the pseudo-locale accented, longer and with the same arguments", () => {
    const pseudo = pseudoLocalize("Invitation sent to {email}.");
    const literal = pseudo.map((element) => (element.type === TYPE.literal ? element.value : `{${element.type === TYPE.argument ? element.value : ""}}`)).join("");
    expect(literal).toMatch(/^\[Îñṽîţàţîöñ šéñţ ţö \{email\}\. ~+\]$/);
    expect(literal.length).toBeGreaterThan("Invitation sent to {email}.".length * 1.3);
  });
});

describe("choice of language", () => {
  it("takes the address's, then the page's, the person's, the user's, the browser's, then English", () => {
    expect(chooseLocale({ query: "en-XA", page: "de", stored: "fr" })).toBe("en-XA");
    expect(chooseLocale({ query: "xx", page: "de-AT", stored: "fr" })).toBe("de");
    expect(chooseLocale({ stored: "fr", user: "pl", browser: ["tr"] })).toBe("fr");
    expect(chooseLocale({ user: "pl", browser: ["tr"] })).toBe("pl");
    expect(chooseLocale({ browser: ["nl-NL", "uk-UA", "ru"] })).toBe("uk");
    expect(chooseLocale({ browser: ["nl", "ja"] })).toBe("en");
  });
});
