import type { Request } from "express";
import { z } from "zod";

/** The product's languages, as the web app ships them. */
export const LOCALES = ["ru", "uk", "en", "es", "de", "pl", "fr", "tr"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

/** A user's chosen language: one of the product's tags. */
export const LocaleTag = z.enum(LOCALES).meta({ description: "One of the product's languages: ru, uk, en, es, de, pl, fr, tr" });

/** The product's language for a BCP 47 tag, by its language part ("de-AT" is German); none for the rest. */
const localeOf = (tag: string) => LOCALES.find((locale) => locale === tag.trim().toLowerCase().split(/[-_]/)[0]);

/** The best of the product's languages an Accept-Language header asks for (by quality, then order), else English. */
export function acceptedLocale(acceptLanguage: string | undefined): Locale {
  const ranges = (acceptLanguage ?? "")
    .split(",")
    .map((range, index) => {
      const [tag = "", ...parameters] = range.split(";");
      const quality = parameters.map((parameter) => /^\s*q=([\d.]+)\s*$/.exec(parameter)?.[1]).find(Boolean);
      return { tag, quality: quality === undefined ? 1 : Number(quality), index };
    })
    .filter((range) => range.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of ranges) {
    const locale = localeOf(tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}

/** The language a request asks for with Accept-Language. */
export const requestLocale = (req: Request): Locale => acceptedLocale(req.get("accept-language"));

/** A person's language: the one they saved, else the one their request asks for. */
export const preferredLocale = (user: { locale: Locale | null } | undefined, req: Request): Locale => user?.locale ?? requestLocale(req);
