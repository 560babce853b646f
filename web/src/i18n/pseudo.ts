import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import english from "./locales/en.json";

/**
 * The pseudo-locale, made from the English catalog when chosen (never written by hand): every letter
 * accented and each message about 40 % longer, in brackets, so text that skips the catalogs stands out
 * as plain English and layouts show where longer languages will not fit. Arguments stay as they are.
 */
const ACCENTED: Record<string, string> = Object.fromEntries(
  [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"].map((letter, index) => [letter, [..."àƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ"][index] ?? letter]),
);

const accent = (text: string) => [...text].map((character) => ACCENTED[character] ?? character).join("");

function accentElements(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((element) => {
    if (element.type === TYPE.literal) return { ...element, value: accent(element.value) };
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      const options = Object.fromEntries(Object.entries(element.options).map(([key, option]) => [key, { ...option, value: accentElements(option.value) }]));
      return { ...element, options };
    }
    if (element.type === TYPE.tag) return { ...element, children: accentElements(element.children) };
    return element;
  });
}

/** The literal text's length, to pad by: arguments count as a word. */
const textLength = (elements: MessageFormatElement[]): number => elements.reduce((length, element) => length + (element.type === TYPE.literal ? element.value.length : 5), 0);

export function pseudoLocalize(message: string): MessageFormatElement[] {
  const elements = parse(message);
  const padding = "~".repeat(Math.ceil(textLength(elements) * 0.4));
  return [{ type: TYPE.literal, value: "[" }, ...accentElements(elements), { type: TYPE.literal, value: ` ${padding}]` }];
}

export const pseudoCatalog = (): Record<string, MessageFormatElement[]> => Object.fromEntries(Object.entries(english).map(([id, message]) => [id, pseudoLocalize(message)]));
