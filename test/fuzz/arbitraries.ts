import fc from "fast-check";

export type JsonType = "string" | "number" | "integer" | "boolean" | "null" | "array" | "object";

/** The parts of JSON Schema (2020-12, as OpenAPI 3.1 writes it) that values are generated from. */
export interface JsonSchema {
  $ref?: string;
  type?: JsonType | JsonType[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  not?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
}

/**
 * Where a value sits in what is generated, from the root: property names, `0` for the items of an
 * array (they share one arbitrary) and `*` for the values of a dictionary.
 */
export type Location = (string | number)[];

export interface SchemaArbitraryOptions {
  /** `#/components/schemas/…` targets of `$ref`. */
  components?: Record<string, JsonSchema>;
  /**
   * Lets the caller swap in values the schema cannot know (ids of things that exist): given the
   * schema of a string, where it sits and the arbitrary made from the schema, the arbitrary to use.
   */
  strings?: (schema: JsonSchema, at: Location, fromSchema: fc.Arbitrary<unknown>) => fc.Arbitrary<unknown>;
}

/** Arrays and dictionaries stay short: a request is about its shapes, not its bulk. */
const MAX_EXTRA_ITEMS = 3;
/** `$ref`s followed in one value before optional parts are left out, so recursive schemas end. */
const MAX_REF_DEPTH = 4;

const NUL = "\u0000";

/**
 * One character of text: mostly printable ASCII, sometimes other control characters or any Unicode
 * scalar value (astral ones too), never NUL (the kit refuses NUL everywhere by one rule that JSON
 * Schema cannot say) and never a lone surrogate (not text at all).
 */
const character = fc
  .oneof(
    { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
    { weight: 1, arbitrary: fc.integer({ min: 0x01, max: 0x1f }) },
    { weight: 2, arbitrary: fc.integer({ min: 0x7f, max: 0x10ffff }).filter((code) => code < 0xd800 || code > 0xdfff) },
  )
  .map((code) => String.fromCodePoint(code));

/** Text of `minLength` to `maxLength` characters (code points, as JSON Schema and zod count them). */
export const text = (minLength = 0, maxLength = minLength + 40): fc.Arbitrary<string> =>
  fc.array(character, { minLength, maxLength: Math.min(maxLength, minLength + 40) }).map((characters) => characters.join(""));

const typesOf = (schema: JsonSchema): JsonType[] | undefined => (schema.type === undefined ? undefined : Array.isArray(schema.type) ? schema.type : [schema.type]);

/** Any JSON value without NUL: what a schema that says nothing accepts. */
const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    text(),
    fc.array(tie("value"), { maxLength: MAX_EXTRA_ITEMS }),
    fc.dictionary(text(1, 20), tie("value"), { maxKeys: MAX_EXTRA_ITEMS, noNullPrototype: true }),
  ),
})).value;

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? Infinity;
  const fits = (value: string) => {
    const length = [...value].length;
    return length >= minLength && length <= maxLength && !value.includes(NUL);
  };
  // zod writes the pattern it checks beside a format; it is the sharper of the two.
  if (schema.pattern !== undefined) return fc.stringMatching(new RegExp(schema.pattern, "u")).filter(fits);
  switch (schema.format) {
    case "email":
      return fc.emailAddress().filter(fits);
    case "uri":
      return fc.webUrl({ withQueryParameters: true, withFragments: true }).filter(fits);
    case "date-time":
      return fc.date({ min: new Date("0001-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true }).map((date) => date.toISOString());
    case "date":
      return fc.date({ min: new Date("0001-01-01T00:00:00Z"), max: new Date("9999-12-31T00:00:00Z"), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));
    case "uuid":
      return fc.uuid();
    default:
      return text(minLength, maxLength);
  }
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  if (integer) {
    const min = schema.exclusiveMinimum !== undefined ? Math.floor(schema.exclusiveMinimum) + 1 : Math.ceil(schema.minimum ?? Number.MIN_SAFE_INTEGER);
    const max = schema.exclusiveMaximum !== undefined ? Math.ceil(schema.exclusiveMaximum) - 1 : Math.floor(schema.maximum ?? Number.MAX_SAFE_INTEGER);
    const step = schema.multipleOf ?? 1;
    return fc.integer({ min: Math.ceil(min / step), max: Math.floor(max / step) }).map((n) => n * step);
  }
  const numbers = fc.double({
    noNaN: true,
    noDefaultInfinity: true,
    ...(schema.minimum !== undefined && { min: schema.minimum }),
    ...(schema.maximum !== undefined && { max: schema.maximum }),
    ...(schema.exclusiveMinimum !== undefined && { min: schema.exclusiveMinimum, minExcluded: true }),
    ...(schema.exclusiveMaximum !== undefined && { max: schema.exclusiveMaximum, maxExcluded: true }),
  });
  // -0 is not JSON; it would be sent as 0.
  const finite = numbers.map((n) => (Object.is(n, -0) ? 0 : n));
  const step = schema.multipleOf;
  return step === undefined ? finite : finite.map((n) => Math.round(n / step) * step);
}

/**
 * Values valid for `schema`: type (arrays of types for nullable), properties, required and
 * additionalProperties (with propertyNames), items with minItems/maxItems, enum and const,
 * anyOf/oneOf, string minLength/maxLength/pattern/format (email, uri, date-time, date, uuid),
 * integer and number bounds, `$ref` into the components. Strings never carry NUL.
 */
export function arbitraryFor(schema: JsonSchema | boolean, options: SchemaArbitraryOptions = {}, at: Location = [], refDepth = 0): fc.Arbitrary<unknown> {
  if (schema === true) return anyJson;
  if (schema === false) throw new Error(`nothing is valid at ${at.join(".")}`);
  if (schema.$ref !== undefined) {
    const name = schema.$ref.replace("#/components/schemas/", "");
    const target = options.components?.[name];
    if (!target) throw new Error(`unresolved $ref ${schema.$ref}`);
    return arbitraryFor(target, options, at, refDepth + 1);
  }
  if (schema.allOf !== undefined || schema.not !== undefined) throw new Error(`allOf and not are not generated (at ${at.join(".") || "the root"})`);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((branch) => arbitraryFor(branch, options, at, refDepth)));
  const types = typesOf(schema) ?? (schema.properties ? ["object"] : schema.items ? ["array"] : undefined);
  if (!types) return anyJson;
  if (types.length > 1) return fc.oneof(...types.map((type) => arbitraryFor({ ...schema, type }, options, at, refDepth)));
  switch (types[0]) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return numberArbitrary(schema, true);
    case "number":
      return numberArbitrary(schema, false);
    case "string": {
      const fromSchema = stringArbitrary(schema);
      return options.strings ? options.strings(schema, at, fromSchema) : fromSchema;
    }
    case "array": {
      const minLength = schema.minItems ?? 0;
      // A recursive schema (a meter's filter holds filters) ends here, before its items are even built.
      if (refDepth >= MAX_REF_DEPTH && minLength === 0) return fc.constant([]);
      const maxLength = refDepth >= MAX_REF_DEPTH ? minLength : Math.min(schema.maxItems ?? Infinity, minLength + MAX_EXTRA_ITEMS);
      return fc.array(arbitraryFor(schema.items ?? true, options, [...at, 0], refDepth), { minLength, maxLength });
    }
    case "object":
      return objectArbitrary(schema, options, at, refDepth);
    default:
      throw new Error(`unknown type ${String(types[0])} at ${at.join(".")}`);
  }
}

function objectArbitrary(schema: JsonSchema, options: SchemaArbitraryOptions, at: Location, refDepth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const declared = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, arbitraryFor(property, options, [...at, name], refDepth)]));
  const requiredKeys = Object.keys(properties).filter((name) => required.has(name) || refDepth >= MAX_REF_DEPTH);
  // Plain objects, as JSON.parse makes them: fixtures and mutations look into those only.
  const known = fc.record(declared, { requiredKeys, noNullPrototype: true });
  const extra = schema.additionalProperties;
  if (extra === false || refDepth >= MAX_REF_DEPTH) return known;
  // Keys of the caller's choosing, as a record's propertyNames allow; `__proto__` is refused by every JSON reader that merges bodies.
  const keys = (schema.propertyNames ? arbitraryFor(schema.propertyNames, {}, at, refDepth) : text(1, 20)).filter(
    (key): key is string => typeof key === "string" && key !== "__proto__" && !(key in properties),
  );
  // Without additionalProperties a schema allows any other key: the endpoint must ignore what it does not read.
  const values = typeof extra === "object" ? arbitraryFor(extra, options, [...at, "*"], refDepth) : anyJson;
  const others = fc.dictionary(keys, values, { maxKeys: typeof extra === "object" ? MAX_EXTRA_ITEMS : 1, noNullPrototype: true });
  const withOthers = fc.tuple(known, others).map(([own, more]) => ({ ...more, ...own }));
  return typeof extra === "object" ? withOthers : fc.oneof({ weight: 4, arbitrary: known }, { weight: 1, arbitrary: withOthers });
}
