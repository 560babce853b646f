import { IntlMessageFormat, type PrimitiveType } from "intl-messageformat";
import de from "./locales/de.json" with { type: "json" };
import en from "./locales/en.json" with { type: "json" };
import es from "./locales/es.json" with { type: "json" };
import fr from "./locales/fr.json" with { type: "json" };
import pl from "./locales/pl.json" with { type: "json" };
import ru from "./locales/ru.json" with { type: "json" };
import tr from "./locales/tr.json" with { type: "json" };
import uk from "./locales/uk.json" with { type: "json" };
import type { Locale } from "./locales.js";

/** The id of a message people read: English's catalog has them all. */
export type MessageId = keyof typeof en;

/** Typed by English's keys, so a catalog that lacks one does not compile (the catalog test finds extra ones). */
const CATALOGS: Record<Locale, Record<MessageId, string>> = { ru, uk, en, es, de, pl, fr, tr };

/**
 * A mail goes out without knowing its reader's time zone, so the moments in it are written in UTC
 * and say so.
 */
const FORMATS = {
  date: { long: { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" } },
  time: { short: { hour: "numeric", minute: "2-digit", timeZone: "UTC" } },
} as const;

const compiled = new Map<string, IntlMessageFormat>();

/** A message in the language, with its arguments (plurals, numbers and dates as the language writes them). */
export function translate(locale: Locale, id: MessageId, values?: Record<string, PrimitiveType>): string {
  const key = `${locale} ${id}`;
  let format = compiled.get(key);
  if (!format) {
    format = new IntlMessageFormat(CATALOGS[locale][id], locale, FORMATS);
    compiled.set(key, format);
  }
  const text = format.format<string>(values);
  return Array.isArray(text) ? text.join("") : text;
}
