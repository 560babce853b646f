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

/**
 * A web address a buyer or customer may be sent to: http or https only, since the page that follows
 * it would run a `javascript:` or `data:` URL as the site.
 */
export const webUrl = () => z.url({ protocol: /^https?$/, error: "Input should be a valid URL with an http or https scheme" });
