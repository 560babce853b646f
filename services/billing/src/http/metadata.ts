import type { Request } from "express";
import { z } from "zod";

/** Polar's metadata: up to 50 keys of at most 40 characters, each a string (≤ 500), a number or a boolean. */
export const metadataInput = z
  .record(z.string().min(1).max(40), z.union([z.string().max(500), z.number(), z.boolean()]))
  .refine((metadata) => Object.keys(metadata).length <= 50, { error: "Metadata can have at most 50 keys" });

/** Metadata as it goes out, for the answers that carry it. */
export const metadataOutput = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

/**
 * `metadata[key]=value` filters from the query (repeated keys mean any of the values), as Polar's SDK
 * sends them. Values compare as text, whatever type was stored.
 */
export function metadataFilters(req: Request): Map<string, string[]> {
  const filters = new Map<string, string[]>();
  for (const [name, value] of Object.entries(req.query)) {
    const key = /^metadata\[(.+)\]$/.exec(name)?.[1];
    if (!key) continue;
    const values = (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === "string");
    filters.set(key, values);
  }
  return filters;
}

/**
 * `metadata[key]=value`, as a list's query declares it for the API's description. The query parser
 * keeps each such parameter under its own name, so lists read them with metadataFilters: this field
 * is never given a value, and whatever a bare `metadata=` holds is no filter and no error.
 */
export const metadataQuery = z
  .unknown()
  .optional()
  .meta({
    description: "Filter by metadata: `metadata[key]=value`; a key repeated matches any of its values",
    param: { style: "deepObject", explode: true },
    override: { type: "object", additionalProperties: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] } },
  });
