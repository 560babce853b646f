import type { Page } from "playwright-core";
import { expect } from "vitest";
import { catalogOf, checkScreen, english } from "./browser.js";

/**
 * What a screen shows people, read from the browser, and the checks over it: text left in English,
 * text that bypassed the catalogs (the pseudo-locale), and layouts that break.
 */

// These run in the page: the test's own types know no DOM, so they are written as scripts.

const VISIBLE_TEXTS = `(() => {
  const texts = [];
  const shown = (element) => element.checkVisibility({ visibilityProperty: true }) || element.closest(".sr-only") !== null;
  for (const element of document.body.querySelectorAll("*")) {
    // translate="no" marks what is not the app's to translate: mail as it was sent, codes.
    if (element.closest("script, style, noscript, [translate=no]") || !shown(element)) continue;
    const own = [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent).join("").trim();
    if (own) texts.push(own);
    for (const attribute of ["placeholder", "aria-label", "title", "alt"]) {
      const value = element.getAttribute(attribute)?.trim();
      if (value) texts.push(value);
    }
  }
  return texts;
})()`;

const LAYOUT_BREAKS = `(async () => {
  // What was resized settles first: charts redraw to their new width in a ResizeObserver, before the next frame.
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const breaks = [];
  const width = window.innerWidth;
  if (document.documentElement.scrollWidth > width) breaks.push("the page is " + document.documentElement.scrollWidth + "px wide in a " + width + "px window");
  const describe = (element) => element.tagName.toLowerCase() + (element.className && typeof element.className === "string" ? "." + element.className.trim().split(/\\s+/).join(".") : "") + ' "' + (element.innerText || element.value || "").trim().slice(0, 40) + '"';
  // Elements that scroll sideways on purpose (code, wide tables) keep their content reachable.
  const scrolls = (element) => ["auto", "scroll"].includes(getComputedStyle(element).overflowX);
  const insideScroller = (element) => {
    for (let parent = element.parentElement; parent; parent = parent.parentElement) if (scrolls(parent)) return true;
    return false;
  };
  for (const element of document.body.querySelectorAll("*")) {
    if (!element.checkVisibility({ visibilityProperty: true }) || element.closest(".sr-only, svg")) continue;
    if (getComputedStyle(element).display === "inline" || element.clientWidth === 0) continue;
    // A text field scrolls what was typed into it.
    const field = element.matches("input, textarea, select");
    if (!field && !scrolls(element) && element.scrollWidth > element.clientWidth + 1) breaks.push(describe(element) + " overflows: " + element.scrollWidth + "px of content in " + element.clientWidth + "px");
    const box = element.getBoundingClientRect();
    if (box.right > width + 1 && !insideScroller(element)) breaks.push(describe(element) + " runs off the side: " + Math.round(box.right) + "px in " + width + "px");
  }
  return breaks;
})()`;

const WORD_BREAKS = `(() => {
  const breaks = [];
  const describe = (element) => element.tagName.toLowerCase() + ' "' + (element.innerText || "").trim().replace(/\\s+/g, " ").slice(0, 40) + '"';
  for (const cell of document.body.querySelectorAll("td, th")) {
    if (!cell.checkVisibility({ visibilityProperty: true })) continue;
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest(".sr-only") || !parent.checkVisibility({ visibilityProperty: true })) continue;
      for (const word of node.textContent.matchAll(/\\S+/g)) {
        // An e-mail address, a web address or a long code has no syllables to keep: it may break where it must.
        if (/@|:\\/\\//.test(word[0]) || (word[0].length >= 20 && /\\d/.test(word[0]) && /\\p{L}/u.test(word[0]))) continue;
        // After a hyphen a line may end, as in any text ("E-Mail-|Adresse"); inside each part it may not.
        let start = word.index;
        for (const part of word[0].split(/(?<=-)/)) {
          const range = document.createRange();
          range.setStart(node, start);
          range.setEnd(node, start + part.length);
          start += part.length;
          // A part's boxes on one line share their top; a line further down means it was cut.
          const tops = [...range.getClientRects()].filter((box) => box.width > 0).map((box) => box.top);
          const lines = tops.filter((top, index) => tops.findIndex((other) => Math.abs(other - top) < 3) === index).length;
          if (lines > 1) breaks.push('"' + word[0] + '" is cut over ' + lines + " lines in " + describe(cell));
        }
      }
    }
  }
  return breaks;
})()`;

/** Every text a person reads on the page: visible text (and what only screen readers announce), placeholders, labels and titles. */
export const visibleTexts = (page: Page): Promise<string[]> => page.evaluate<string[]>(VISIBLE_TEXTS);

/** Elements whose content overflows or is cut off, and a page wider than its window. */
export const layoutBreaks = (page: Page): Promise<string[]> => page.evaluate<string[]>(LAYOUT_BREAKS);

/**
 * Words in a table's cells (or a card made of one) cut over more than one line other than after a hyphen:
 * "Novembe|r 27", "$39.2|0". Addresses and long codes may break where they must.
 */
export const wordBreaks = (page: Page): Promise<string[]> => page.evaluate<string[]>(WORD_BREAKS);

/** A message with arguments as a pattern over the text it shows: literal parts kept, arguments any text. */
function messagePattern(message: string): RegExp | undefined {
  // Plurals, selects and tags show as several pieces, not one text.
  if (/[{}]\s*\w+\s*,|<\w+>/.test(message)) return undefined;
  const literals = message.split(/\{\s*\w+\s*\}/);
  // A message of mostly arguments ("Link {provider}") would match other languages' text too.
  if ((literals.join(" ").match(/\p{L}{3,}/gu) ?? []).length < 2) return undefined;
  return new RegExp(`^${literals.map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, "\\$&")).join(".+")}$`, "s");
}

/**
 * What a page in `locale` shows that it should not: English messages that the language's catalog
 * words differently (text that bypassed the catalog), and raw message ids.
 */
export function untranslated(texts: string[], locale: string): string[] {
  const catalog = catalogOf(locale);
  // A word can be the language's own for one message and English for another ("Name" in German
  // labels a person's name, while a product's name is "Bezeichnung"): what the catalog says somewhere is its text.
  const own = new Set(Object.values(catalog));
  const bypassed = Object.entries(english).filter(([id, message]) => catalog[id] !== message && !own.has(message));
  const exact = new Set(bypassed.map(([, message]) => message));
  const patterns = bypassed.flatMap(([, message]) => messagePattern(message) ?? []);
  return texts.filter((text) => exact.has(text) || text in english || patterns.some((pattern) => pattern.test(text)));
}

/** The pseudo-locale's letters: a text with none of them came from outside the catalogs. */
const PSEUDO_LETTERS = /[àƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ]/u;

/**
 * Text no catalog message made, on a page in the pseudo-locale: every text without a pseudo accent
 * that is not one of `allowed` (what people typed, names, addresses, numbers, dates).
 */
export const bypassingCatalogs = (texts: string[], allowed: RegExp[]): string[] =>
  texts.filter((text) => !PSEUDO_LETTERS.test(text) && !allowed.some((pattern) => pattern.test(text)));

/** The checks a console test makes of each screen it shows, in one language. */
export interface ScreenChecks {
  /** The screen as it stands: in the language throughout, and nothing serious for axe; its screenshot kept. */
  checkConsole: (page: Page, name: string) => Promise<void>;
  /** The same screen at phone width, nothing cut off or wider than the window, then back to a desktop's. */
  checkPhone: (page: Page, name: string) => Promise<void>;
}

/**
 * Screen checks for pages in `locale`, screenshots named `{prefix}-{name}`. Texts `notMessages`
 * matches are left out: code the page shows as it is (event names) that a message also reads as.
 */
export function screenChecks(locale: string, prefix: string, notMessages?: RegExp): ScreenChecks {
  const checkConsole = async (page: Page, name: string) => {
    const texts = (await visibleTexts(page)).filter((text) => !notMessages?.test(text));
    expect(untranslated(texts, locale), name).toEqual([]);
    await checkScreen(page, `${prefix}-${name}`);
  };
  const checkPhone = async (page: Page, name: string) => {
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await layoutBreaks(page), name).toEqual([]);
    await checkConsole(page, `${name}-phone`);
    await page.setViewportSize({ width: 1280, height: 800 });
  };
  return { checkConsole, checkPhone };
}
