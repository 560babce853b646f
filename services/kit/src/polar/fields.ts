import { z } from "zod";

/**
 * An integer a Postgres `integer` column holds. Every integer the API stores is parsed by this (or
 * tighter bounds), so a larger one is a 422 naming the field rather than a failed statement and a 500.
 */
export const pgInteger = () => z.int32();

/** The largest value of a Postgres `integer`, for bounds that coercion or arithmetic must keep to. */
export const PG_INTEGER_MAX = 2_147_483_647;

/** A moment as the API sends it: ISO 8601 with an offset (a `Date` in JSON is one, in UTC). */
export const isoTimestamp = () => z.iso.datetime({ offset: true });

/** The first and last instants that Polar (Python's datetime: years 1 to 9999) and Postgres both hold. */
const FIRST_MOMENT = Date.parse("0001-01-01T00:00:00Z");
const LAST_MOMENT = Date.parse("9999-12-31T23:59:59.999Z");

/**
 * A moment a request sends, read as a `Date`: ISO 8601 with an offset, in years 1 to 9999 once moved
 * to UTC, as Polar reads one. Postgres has no year 0, so such a moment would fail the statement.
 */
export const momentInput = () =>
  z.iso
    .datetime({ offset: true })
    .superRefine((text, context) => {
      const moment = Date.parse(text);
      if (moment >= FIRST_MOMENT && moment <= LAST_MOMENT) return;
      const message = `Input should be a valid datetime, year ${moment < FIRST_MOMENT ? 0 : 10000} is out of range`;
      context.addIssue({ code: "custom", message, params: { type: "datetime_parsing" }, input: text });
    })
    .transform((text) => new Date(text));

/** A calendar day a request sends (YYYY-MM-DD), in years 1 to 9999 as Polar reads one. */
export const dayInput = () =>
  z.iso.date().refine((day) => !day.startsWith("0000"), { error: "Input should be a valid date in the format YYYY-MM-DD, year 0 is out of range", params: { type: "date_parsing" } });

/** Whether the runtime's time zone database (ICU's) knows the zone. */
function runtimeKnows(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * A time zone by its IANA name, as Polar's TimeZoneName, known to both this Postgres (`known`: its
 * names lower-cased, see `postgresTimeZones`) and the runtime. Their databases differ in age, and a
 * zone only one of them knows (US/Pacific-New) would fail a statement or a formatting.
 */
export const timeZoneName = (known: ReadonlySet<string>) =>
  z.string().refine((zone) => known.has(zone.toLowerCase()) && runtimeKnows(zone), { error: "Invalid timezone name.", params: { type: "TimeZoneName" } });

/**
 * A web address a buyer or customer may be sent to: http or https only, since the page that follows
 * it would run a `javascript:` or `data:` URL as the site.
 */
export const webUrl = () => z.url({ protocol: /^https?$/, error: "Input should be a valid URL with an http or https scheme" });
