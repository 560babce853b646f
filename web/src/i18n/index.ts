/**
 * The app's languages. FormatJS (react-intl) carries the messages: ICU MessageFormat gives Russian,
 * Ukrainian and Polish their several plural forms (and French and Spanish their "many"), its CLI
 * extracts the English catalog from the code (`npm run i18n:extract`), and its formatters are Intl's,
 * so money, numbers and dates follow the active language. Each non-English catalog is a separate
 * chunk, loaded only when chosen; English is the code's own default messages.
 */
export const LOCALES = ["ru", "uk", "en", "es", "de", "pl", "fr", "tr"] as const;
export type ShippedLocale = (typeof LOCALES)[number];

/** Accented, longer English, for finding text that bypasses the catalogs (`?locale=en-XA`). */
export const PSEUDO_LOCALE = "en-XA";
export type Locale = ShippedLocale | typeof PSEUDO_LOCALE;

export const DEFAULT_LOCALE: ShippedLocale = "en";

/** Each language by its own name, as its readers look for it in a list. */
export const LOCALE_NAMES: Record<Locale, string> = {
  ru: "Русский",
  uk: "Українська",
  en: "English",
  es: "Español",
  de: "Deutsch",
  pl: "Polski",
  fr: "Français",
  tr: "Türkçe",
  [PSEUDO_LOCALE]: "Pseudo (en-XA)",
};

export const isLocale = (tag: string): tag is Locale => tag === PSEUDO_LOCALE || (LOCALES as readonly string[]).includes(tag);
