import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale, type ShippedLocale } from "./index";

const STORAGE_KEY = "tollgate.locale";

/** The shipped language for a BCP 47 tag, by its language part: "de-AT" → "de"; none for the rest. */
export function shippedLocaleOf(tag: string | null | undefined): ShippedLocale | undefined {
  const language = tag?.toLowerCase().split(/[-_]/)[0];
  return LOCALES.find((locale) => locale === language);
}

export interface LocaleSources {
  /** `?locale=` in the address, for trying a language (and the pseudo-locale) without saving it. */
  query?: string | null;
  /** The page's own: a hosted checkout's or a customer's `locale`, chosen by the seller's API call. */
  page?: string | null;
  /** Chosen with the switcher in this browser. */
  stored?: string | null;
  /** The signed-in user's saved choice (`user.locale`). */
  user?: string | null;
  /** The browser's languages, best first: what Accept-Language carries. */
  browser?: readonly string[];
}

/**
 * The language to show. A signed-in user's saved choice comes before the one stored in this browser:
 * it follows them to every browser (and to their mail), while the stored one, also made signed out
 * or on another account, may be older.
 */
export function chooseLocale({ query, page, stored, user, browser = [] }: LocaleSources): Locale {
  if (query && isLocale(query)) return query;
  for (const candidate of [page, user, stored, ...browser]) {
    const shipped = shippedLocaleOf(candidate);
    if (shipped) return shipped;
  }
  return DEFAULT_LOCALE;
}

export function storedLocale(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage refused (private mode, blocked cookies): nothing was remembered
  }
}

/** Remembers the choice in this browser; null forgets it, leaving the choice to the browser's languages. */
export function storeLocale(locale: Locale | null): void {
  try {
    if (locale) localStorage.setItem(STORAGE_KEY, locale);
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage refused: the choice lasts for this page only.
  }
}
