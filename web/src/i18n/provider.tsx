import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { RawIntlProvider } from "react-intl";
import { useSession } from "../api/session";
import { chooseLocale, storedLocale, storeLocale } from "./choice";
import { DEFAULT_LOCALE, PSEUDO_LOCALE, type Locale, type ShippedLocale } from "./index";
import { activateIntl, intlFor, type Catalog } from "./translate";

/** Every translated catalog as its own chunk, fetched when its language is chosen. */
const CATALOGS = import.meta.glob<Catalog>(["./locales/*.json", "!./locales/en.json"], { import: "default" });

async function loadCatalog(locale: Locale): Promise<Catalog> {
  if (locale === DEFAULT_LOCALE) return {};
  if (locale === PSEUDO_LOCALE) return (await import("./pseudo")).pseudoCatalog();
  const load = CATALOGS[`./locales/${locale}.json`];
  return load ? load() : {};
}

interface LocaleControl {
  locale: Locale;
  /**
   * The person's choice (null: none, the browser's languages decide), remembered in this browser and,
   * when signed in, saved as the user's `locale`. Resolves to whether it was saved to the account (not
   * when signed out, nor for the pseudo-locale, which is for this browser only); rejects when saving failed.
   */
  choose: (locale: Locale | null) => Promise<boolean>;
  /** A page's own language (a checkout's or customer's `locale`), or null to leave the choice to the person. */
  setPageLocale: (locale: string | null) => void;
}

const LocaleContext = createContext<LocaleControl | null>(null);

export function useLocaleControl(): LocaleControl {
  const control = useContext(LocaleContext);
  if (!control) throw new Error("useLocaleControl needs a LocaleProvider above it");
  return control;
}

/** Shows the page in its own language (a hosted checkout's or customer's `locale`) while it is open. */
export function usePageLocale(locale: string | null | undefined): void {
  const { setPageLocale } = useLocaleControl();
  useEffect(() => {
    setPageLocale(locale ?? null);
    return () => setPageLocale(null);
  }, [locale, setPageLocale]);
}

/**
 * Chooses the language, loads its catalog and provides it. The first paint waits for the first
 * catalog (English needs none), so a page never flashes in English first; afterwards, until a newly
 * chosen catalog has arrived the previous language stays on screen, so switching never blanks it.
 */
export function LocaleProvider({ children }: { children: ReactNode }) {
  const session = useSession();
  const [stored, setStored] = useState(storedLocale);
  const [page, setPageLocale] = useState<string | null>(null);
  // A choice being saved shows at once, before the session refetched after the save carries it.
  const [saving, setSaving] = useState<{ userId: string; locale: ShippedLocale | null } | null>(null);
  const userId = session.data?.user.id;
  const savedLocale = saving && saving.userId === userId ? saving.locale : session.data?.user.locale;
  const locale = chooseLocale({
    query: new URLSearchParams(window.location.search).get("locale"),
    page,
    stored,
    user: savedLocale,
    browser: navigator.languages,
  });
  const [loaded, setLoaded] = useState<{ locale: Locale; catalog: Catalog } | null>(() => (locale === DEFAULT_LOCALE ? { locale, catalog: {} } : null));
  const shown = loaded?.locale ?? DEFAULT_LOCALE;
  useEffect(() => {
    let current = true;
    void loadCatalog(locale).then((catalog) => current && setLoaded({ locale, catalog }));
    return () => {
      current = false;
    };
  }, [locale]);
  const intl = useMemo(() => intlFor(shown, loaded?.catalog), [shown, loaded]);
  // Before the children render, so form rules and error texts they produce use the same language.
  activateIntl(intl);
  useEffect(() => {
    document.documentElement.lang = shown;
  }, [shown]);
  const control = useMemo<LocaleControl>(
    () => ({
      locale: shown,
      choose: (chosen) => {
        storeLocale(chosen);
        setStored(chosen);
        if (!userId || chosen === PSEUDO_LOCALE) return Promise.resolve(false);
        setSaving({ userId, locale: chosen });
        // better-auth's client loads only when something is saved through it (see api/session.ts).
        return import("../api/auth-client").then(({ authClient, viaAuth }) => viaAuth(() => authClient.updateUser({ locale: chosen })).then(() => true));
      },
      setPageLocale,
    }),
    [shown, userId],
  );
  if (!loaded) return null;
  return (
    <LocaleContext.Provider value={control}>
      <RawIntlProvider value={intl}>{children}</RawIntlProvider>
    </LocaleContext.Provider>
  );
}
