import type { JsonSchema } from "./polar-sdk.js";

type Components = Record<string, JsonSchema>;

/** Follows `$ref`s into the document's components. */
function resolve(schema: JsonSchema, components: Components): JsonSchema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === "string" && hops < 20; hops++) {
    current = components[current.$ref.replace("#/components/schemas/", "")] ?? {};
  }
  return current;
}

/** The variants of a schema (itself, when it is not a union), nulls left out. */
function variants(schema: JsonSchema, components: Components): JsonSchema[] {
  const resolved = resolve(schema, components);
  const union = (resolved.anyOf ?? resolved.oneOf) as JsonSchema[] | undefined;
  if (!union) return resolved.type === "null" ? [] : [resolved];
  return union.flatMap((variant) => variants(variant, components));
}

const nullable = (schema: JsonSchema, components: Components): boolean => {
  const resolved = resolve(schema, components);
  if (resolved.type === "null" || (Array.isArray(resolved.type) && resolved.type.includes("null"))) return true;
  const union = (resolved.anyOf ?? resolved.oneOf) as JsonSchema[] | undefined;
  return union?.some((variant) => nullable(variant, components)) ?? false;
};

/**
 * Every property any object variant declares: its schemas in each (as one union), and whether every
 * variant requires it (a field of one variant alone is not one every answer carries).
 */
function propertiesOf(schema: JsonSchema, components: Components): Map<string, { schema: JsonSchema; required: boolean }> {
  const objects = variants(schema, components).filter((variant) => variant.type === "object" && variant.properties);
  const found = new Map<string, { schemas: JsonSchema[]; required: boolean }>();
  for (const variant of objects) {
    const required = new Set((variant.required ?? []) as string[]);
    for (const [name, property] of Object.entries(variant.properties as Record<string, JsonSchema>)) {
      const seen = found.get(name) ?? { schemas: [], required: true };
      found.set(name, { schemas: [...seen.schemas, property], required: seen.required && required.has(name) });
    }
  }
  return new Map(
    [...found].map(([name, { schemas, required }]) => [
      name,
      { schema: schemas.length === 1 ? (schemas[0] ?? {}) : { anyOf: schemas }, required: required && objects.every((variant) => Object.hasOwn(variant.properties as object, name)) },
    ]),
  );
}

const isObject = (schema: JsonSchema, components: Components) => variants(schema, components).some((variant) => variant.type === "object" && variant.properties);
const itemsOf = (schema: JsonSchema, components: Components) => variants(schema, components).find((variant) => variant.type === "array")?.items as JsonSchema | undefined;

/**
 * How our answer's schema differs from what the SDK parses, field by field: fields the SDK requires
 * that we never send, fields we send that it does not know, and nullability that differs — down a
 * few levels of nesting. Each line names the field's place.
 */
export function shapeDifferences(ours: JsonSchema, ourComponents: Components, theirs: JsonSchema, place = "", depth = 0): string[] {
  if (depth > 3) return [];
  const ourItems = itemsOf(ours, ourComponents);
  const theirItems = itemsOf(theirs, {});
  if (ourItems && theirItems) return shapeDifferences(ourItems, ourComponents, theirItems, `${place}[]`, depth + 1);
  if (!isObject(ours, ourComponents) || !isObject(theirs, {})) return [];
  const differences: string[] = [];
  const mine = propertiesOf(ours, ourComponents);
  const sdk = propertiesOf(theirs, {});
  for (const [name, expected] of sdk) {
    const at = place ? `${place}.${name}` : name;
    const sent = mine.get(name);
    if (!sent) {
      if (expected.required) differences.push(`\`${at}\`: the SDK requires it; we never send it`);
      continue;
    }
    if (expected.required && !sent.required) differences.push(`\`${at}\`: the SDK requires it; we may leave it out`);
    if (nullable(sent.schema, ourComponents) && !nullable(expected.schema, {})) differences.push(`\`${at}\`: we may send null; the SDK does not take null`);
    differences.push(...shapeDifferences(sent.schema, ourComponents, expected.schema, at, depth + 1));
  }
  for (const name of mine.keys()) if (!sdk.has(name) && sdk.size > 0) differences.push(`\`${place ? `${place}.${name}` : name}\`: ours alone (the SDK ignores it)`);
  return differences;
}
