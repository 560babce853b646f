import { createIntl, createIntlCache, type IntlShape, type MessageDescriptor, type MessageFormatElement, type PrimitiveType } from "react-intl";
import type { Locale } from "./index";

export type Catalog = Record<string, string> | Record<string, MessageFormatElement[]>;

const cache = createIntlCache();

/** An Intl for a language and its catalog; English needs none (the code's default messages are English). */
export const intlFor = (locale: Locale, messages: Catalog = {}): IntlShape => createIntl({ locale, defaultLocale: "en", messages }, cache);

let active = intlFor("en");

/** Called by the provider whenever the language changes, so code outside components follows it. */
export function activateIntl(intl: IntlShape): void {
  active = intl;
}

/**
 * A message in the active language, for code that runs outside React components: form rules,
 * error descriptions, permission reasons. English until the provider has loaded a catalog.
 */
export const t = (descriptor: MessageDescriptor, values?: Record<string, PrimitiveType>): string => active.formatMessage(descriptor, values);

export const activeLocale = (): string => active.locale;
