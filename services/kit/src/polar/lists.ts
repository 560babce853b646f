import type { Knex } from "../db/connection.js";
import { z } from "zod";
import { PG_INTEGER_MAX } from "./fields.js";

/** A query parameter given once or repeated (`?id=a&id=b`), always read as a list. */
export const repeated = <Item extends z.ZodType>(item: Item) =>
  z
    .union([item, z.array(item)])
    .transform((value): z.output<Item>[] => (Array.isArray(value) ? value : [value]))
    .optional();

/** Polar's paging: 1-based `page`, `limit` of 10 by default, never more than 100 a page. */
export const paging = {
  page: z.coerce.number().int().min(1).max(PG_INTEGER_MAX).default(1).meta({ description: "Page number, from 1" }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .default(10)
    .transform((limit) => Math.min(limit, 100))
    // Polar's maximum, as its schema says; a larger limit is still taken, as 100, as Polar takes it.
    .meta({ description: "Size of a page, 10 by default; at most 100", maximum: 100 }),
};

/** `sorting=-created_at&sorting=name`: the properties a list may be sorted by, descending with a leading `-`. */
export function sorting<const Property extends string>(properties: readonly Property[], fallback: `${"-" | ""}${NoInfer<Property>}`) {
  const allowed = properties.flatMap((property) => [property, `-${property}`]) as [string, ...string[]];
  return z
    .union([z.enum(allowed), z.array(z.enum(allowed))])
    .default([fallback])
    .transform((value) => (Array.isArray(value) ? value : [value]).map((entry) => ({ property: entry.replace(/^-/, "") as Property, descending: entry.startsWith("-") })));
}

/** Narrows a list to rows whose `column` is one of the values given for it, for each repeated filter present. */
export function whereAnyOf<Column extends string>(query: Knex.QueryBuilder, filters: Partial<Record<Column, readonly unknown[] | undefined>>, columns: readonly Column[]): void {
  for (const column of columns) {
    const wanted = filters[column];
    if (wanted) void query.whereIn(column, wanted as readonly string[]);
  }
}

export type Sort<Property extends string> = { property: Property; descending: boolean }[];

export interface Page<Item> {
  items: Item[];
  pagination: { total_count: number; max_page: number };
}

/**
 * One page of a filtered query, sorted by the requested properties (as columns) and then by id so
 * pages never overlap, with the total Polar reports beside it.
 */
export async function pageOf<Row extends object, Property extends string>(
  query: Knex.QueryBuilder,
  options: { page: number; limit: number; sort: Sort<Property>; columns: Record<Property, string>; table: string },
): Promise<{ rows: Row[]; total: number }> {
  const counted = query.clone().clearSelect().clearOrder().count<{ count: number }[]>({ count: "*" });
  const rows = query.clone();
  for (const { property, descending } of options.sort) void rows.orderBy(options.columns[property], descending ? "desc" : "asc", descending ? "last" : "first");
  void rows
    .orderBy(`${options.table}.id`)
    .limit(options.limit)
    .offset((options.page - 1) * options.limit);
  const [found, [total]] = await Promise.all([rows as Promise<Row[]>, counted]);
  return { rows: found, total: Number(total?.count ?? 0) };
}

const Pagination = z.strictObject({ total_count: z.int().min(0), max_page: z.int().min(0) }).meta({ id: "Pagination" });

/** A page of a list as it goes out, for an endpoint's declared response: Polar's `ListResource_<Item>_`. */
export const listResource = <Item extends z.ZodType>(item: Item, id: string) => z.strictObject({ items: z.array(item), pagination: Pagination }).meta({ id });

export const pageJson = <Item>(items: Item[], total: number, limit: number): Page<Item> => ({
  items,
  pagination: { total_count: total, max_page: Math.ceil(total / limit) },
});
