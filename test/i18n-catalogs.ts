import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { expect, it } from "vitest";

/** A language's messages by id, as FormatJS's simple format keeps them: ICU MessageFormat strings. */
export type Catalog = Record<string, string>;

export const readCatalog = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Catalog;

/** One set of catalogs: the web app's, or a service's. */
export interface CatalogSet {
  /** The folder that holds `<locale>.json` for each language, and nothing else. */
  dir: string;
  locales: readonly string[];
  /**
   * Messages that read the same in a language as in English, reviewed: names, codes and words the
   * language borrows as they are. Keyed by locale, then message id.
   */
  sameAsEnglish?: Record<string, readonly string[]>;
}

interface Shape {
  /** Every argument and tag name the message uses. */
  names: Set<string>;
  /** The option keys of each plural in the message. */
  plurals: string[][];
  /** Its own text, without what arguments put in. */
  literals: string[];
}

function shapeOf(elements: MessageFormatElement[], shape: Shape = { names: new Set(), plurals: [], literals: [] }): Shape {
  for (const element of elements) {
    if (element.type === TYPE.pound) continue;
    if (element.type === TYPE.literal) {
      shape.literals.push(element.value);
      continue;
    }
    shape.names.add(element.value);
    if (element.type === TYPE.plural) shape.plurals.push(Object.keys(element.options));
    if (element.type === TYPE.plural || element.type === TYPE.select) for (const option of Object.values(element.options)) shapeOf(option.value, shape);
    if (element.type === TYPE.tag) shapeOf(element.children, shape);
  }
  return shape;
}

/** What is wrong with a translated message beside its English source, if anything. */
function messageProblems(locale: string, id: string, source: string, translated: string): string[] {
  let shape: Shape;
  try {
    shape = shapeOf(parse(translated));
  } catch (error) {
    return [`${id}: does not parse (${String(error)})`];
  }
  const problems: string[] = [];
  const expected = shapeOf(parse(source)).names;
  const missing = [...expected].filter((name) => !shape.names.has(name));
  if (missing.length > 0) problems.push(`${id}: drops ${missing.join(", ")}`);
  const unknown = [...shape.names].filter((name) => !expected.has(name));
  if (unknown.length > 0) problems.push(`${id}: uses ${unknown.join(", ")}, which English does not pass`);
  const required = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  for (const options of shape.plurals) {
    const absent = required.filter((category) => !options.includes(category));
    if (absent.length > 0) problems.push(`${id}: a plural lacks ${absent.join(", ")}`);
  }
  return problems;
}

/** Whether a message has words of its own, rather than only arguments and punctuation. */
const hasWords = (message: string) => /\p{L}/u.test(shapeOf(parse(message)).literals.join(""));

/**
 * The checks every set of catalogs passes: each language has exactly English's messages, each parses
 * as ICU MessageFormat with English's arguments and its language's plural forms, and none is left in
 * English unless reviewed.
 */
export function testCatalogs({ dir, locales, sameAsEnglish = {} }: CatalogSet): void {
  const english = readCatalog(join(dir, "en.json"));
  const translations = locales.filter((locale) => locale !== "en").map((locale) => [locale, readCatalog(join(dir, `${locale}.json`))] as const);

  it("ships every language", () => {
    expect(readdirSync(dir).sort()).toEqual(locales.map((locale) => `${locale}.json`).sort());
  });

  it("has English messages that parse", () => {
    const broken = Object.entries(english).filter(([, message]) => {
      try {
        parse(message);
        return false;
      } catch {
        return true;
      }
    });
    expect(broken.map(([id]) => id)).toEqual([]);
  });

  it.each(translations)("%s has exactly the English keys", (_, catalog) => {
    expect(Object.keys(catalog).sort()).toEqual(Object.keys(english).sort());
  });

  it.each(translations)("%s: every message parses, keeps its arguments and has its plural forms", (locale, catalog) => {
    const problems = Object.entries(english).flatMap(([id, source]) => {
      const translated = catalog[id];
      return translated === undefined ? [] : messageProblems(locale, id, source, translated);
    });
    expect(problems).toEqual([]);
  });

  it.each(translations)("%s translates every message with words of its own", (locale, catalog) => {
    const allowed = new Set(sameAsEnglish[locale] ?? []);
    const untranslated = Object.entries(english)
      .filter(([id, message]) => catalog[id] === message && hasWords(message) && !allowed.has(id))
      .map(([id]) => id);
    expect(untranslated).toEqual([]);
  });
}
