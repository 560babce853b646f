import type { IncomingHttpHeaders } from "node:http";
import { z } from "zod";
import { API_VERSIONS, NEWEST_API_VERSION, type ApiVersion } from "@tollgate/proto";

export { API_VERSIONS, NEWEST_API_VERSION, type ApiVersion };

/** The request header, as node spells it (lowercase). */
export const API_VERSION_HEADER = "polar-version";

export const isApiVersion = (value: unknown): value is ApiVersion => API_VERSIONS.includes(value as ApiVersion);

/** The version a request asked for. The gateway has refused any other with a 404, as Polar does, and named the newest when none was asked. */
export function apiVersionOf(headers: IncomingHttpHeaders): ApiVersion {
  const asked = headers[API_VERSION_HEADER];
  return isApiVersion(asked) ? asked : NEWEST_API_VERSION;
}

/** The fields that came with a version: older versions' answers and descriptions leave them out. */
const introducedIn = z.registry<{ version: ApiVersion }>();

/**
 * `schema` as a field that answers carry from `version` on (Polar's models gained license keys'
 * `member` in 2026-10, say). A copy is marked, so a schema shared elsewhere stays as it was.
 */
export function since<Schema extends z.ZodType>(version: ApiVersion, schema: Schema): Schema {
  const marked = schema.clone();
  introducedIn.add(marked, { version });
  return marked;
}

/** Whether `field` came after `version`, so that version's callers do not know it. */
export const introducedAfter = (field: z.ZodType, version: ApiVersion): boolean => {
  const introduced = introducedIn.get(field)?.version;
  return introduced !== undefined && introduced > version;
};

type Def = z.core.$ZodTypeDef & Record<string, unknown>;
const defOf = (schema: z.core.$ZodType): Def => schema._zod.def as Def;

/** The schemas directly inside `schema`: an object's fields, an array's items, a union's options, what a wrapper wraps. */
function inner(schema: z.core.$ZodType): z.core.$ZodType[] {
  const def = defOf(schema);
  switch (def.type) {
    case "object":
      return Object.values(def.shape as Record<string, z.core.$ZodType>);
    case "array":
      return [def.element as z.core.$ZodType];
    case "union":
      return def.options as z.core.$ZodType[];
    case "record":
      return [def.valueType as z.core.$ZodType];
    case "intersection":
      return [def.left as z.core.$ZodType, def.right as z.core.$ZodType];
    case "pipe":
      return [def.in as z.core.$ZodType, def.out as z.core.$ZodType];
    case "lazy":
      return [(def.getter as () => z.core.$ZodType)()];
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      return [def.innerType as z.core.$ZodType];
    default:
      return [];
  }
}

const versionedCache = new WeakMap<z.core.$ZodType, boolean>();
/** Whether anything in `schema` came with a version: most answers have nothing to take out. */
function hasVersionedFields(schema: z.core.$ZodType, seen = new Set<z.core.$ZodType>()): boolean {
  const known = versionedCache.get(schema);
  if (known !== undefined) return known;
  if (seen.has(schema)) return false;
  seen.add(schema);
  const found = introducedIn.has(schema) || inner(schema).some((child) => hasVersionedFields(child, seen));
  versionedCache.set(schema, found);
  return found;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** Of a union's options, the one describing `value`: the object option sharing most of its fields. */
function optionFor(options: z.core.$ZodType[], value: unknown): z.core.$ZodType | undefined {
  const unwrapped = options.map((option) => ({ option, bare: unwrap(option) }));
  if (Array.isArray(value)) return unwrapped.find(({ bare }) => defOf(bare).type === "array")?.option;
  if (!isRecord(value)) return undefined;
  const keys = Object.keys(value);
  let best: { option: z.core.$ZodType; shared: number } | undefined;
  for (const { option, bare } of unwrapped) {
    const def = defOf(bare);
    if (def.type !== "object") continue;
    const shape = def.shape as Record<string, z.core.$ZodType>;
    const shared = keys.filter((key) => key in shape).length;
    if (!best || shared > best.shared) best = { option, shared };
  }
  return best?.option;
}

/** A wrapper's innermost schema: what the value itself is described by. */
function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  for (let depth = 0; depth < 10; depth++) {
    const type = defOf(current).type;
    if (!["optional", "nullable", "default", "prefault", "readonly", "catch", "nonoptional", "lazy"].includes(type)) break;
    current = inner(current)[0] ?? current;
  }
  return current;
}

function shapedFor(value: unknown, schema: z.core.$ZodType, version: ApiVersion): unknown {
  const bare = unwrap(schema);
  const def = defOf(bare);
  if (def.type === "array" && Array.isArray(value)) return value.map((item) => shapedFor(item, def.element as z.core.$ZodType, version));
  if (def.type === "union") {
    const option = optionFor(def.options as z.core.$ZodType[], value);
    return option ? shapedFor(value, option, version) : value;
  }
  if (def.type === "pipe") return shapedFor(value, def.out as z.core.$ZodType, version);
  if (!isRecord(value)) return value;
  if (def.type === "record") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shapedFor(item, def.valueType as z.core.$ZodType, version)]));
  if (def.type !== "object") return value;
  const shape = def.shape as Record<string, z.ZodType>;
  const shaped: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const field = shape[key];
    if (field && introducedAfter(field, version)) continue;
    shaped[key] = field ? shapedFor(item, field, version) : item;
  }
  return shaped;
}

/** An answer `schema` describes, as `version`'s callers know it: the fields that came after it left out. */
export function answerIn(value: unknown, schema: z.core.$ZodType, version: ApiVersion): unknown {
  if (version === NEWEST_API_VERSION || !hasVersionedFields(schema)) return value;
  return shapedFor(value, schema, version);
}
