import fc from "fast-check";
import type { Location } from "./arbitraries.js";

/**
 * Text sent exactly as written: a body that is not JSON, JSON spliced into a body as it is (nested
 * deeper than JSON.stringify goes), or a URL part that is not percent-encoded.
 */
export class Verbatim {
  constructor(readonly text: string) {}

  [fc.toStringMethod](): string {
    return `verbatim(${JSON.stringify(this.text.length > 80 ? `${this.text.slice(0, 80)}…` : this.text)})`;
  }
}

/** What a request carries, before it is written out: path parameters, query parameters and the JSON body. */
export interface RequestInput {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  /** Absent when the operation takes no body. */
  body?: unknown;
}

/** A request made invalid on purpose, and how. */
export interface Mutant {
  input: RequestInput;
  mutation: string;
}

type Part = keyof RequestInput;

/** One value of a request's input, and where it is. */
interface Site {
  part: Part;
  at: Location;
  value: unknown;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
/** Values the generator put in that stand for a string (a fixture's id): not looked into, replaced whole. */
const isStringLike = (value: unknown) => typeof value === "string" || (typeof value === "object" && value !== null && !Array.isArray(value) && !isPlainObject(value));

function sitesOf(input: RequestInput): Site[] {
  const sites: Site[] = [];
  const pending: Site[] = (["path", "query", "body"] as const).filter((part) => part in input).map((part) => ({ part, at: [], value: input[part] }));
  for (let site = pending.pop(); site; site = pending.pop()) {
    sites.push(site);
    const { part, at, value } = site;
    if (Array.isArray(value)) value.forEach((item: unknown, index) => pending.push({ part, at: [...at, index], value: item }));
    else if (isPlainObject(value)) for (const [key, child] of Object.entries(value)) pending.push({ part, at: [...at, key], value: child });
  }
  return sites;
}

/** `root` with the value at `at` replaced (or removed, for `undefined`), copying only the containers on the way. */
function changedAt(root: unknown, at: Location, value: unknown): unknown {
  const [key, ...rest] = at;
  if (key === undefined) return value;
  if (Array.isArray(root)) return root.map((item: unknown, index) => (index === key ? changedAt(item, rest, value) : item));
  const copy = { ...(root as Record<string, unknown>) };
  if (rest.length === 0 && value === undefined) delete copy[key];
  // defineProperty, so a key named `__proto__` is an own property that JSON.stringify writes out.
  else Object.defineProperty(copy, key, { value: changedAt(copy[key], rest, value), enumerable: true, writable: true, configurable: true });
  return copy;
}

const withValue = (input: RequestInput, site: Site, value: unknown): RequestInput => ({ ...input, [site.part]: changedAt(input[site.part], site.at, value) });

/** JSON nested `depth` levels deep, in arrays or objects, written out as text. */
const nested = (depth: number, asObject: boolean) => new Verbatim(asObject ? `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}` : `${"[".repeat(depth)}1${"]".repeat(depth)}`);

const OUT_OF_RANGE = [-1, 0, -2_147_483_649, 2_147_483_648, 2 ** 53 + 2, 1e21, 1e308, -1e308, 0.5, 1e-7];
const WRONG_TYPES: unknown[] = [42, -1.5, "text", true, null, [], {}, [1, "a"], { a: 1 }];
const UNKNOWN_ENUM_VALUES = ["not-one-of-them", "", " ", "UPPER", "null", "-", "constructor"];
const BAD_PERCENT_ENCODINGS = ["%", "%E0%A4%A", "%C0%AF", "%FF", "%00", "%2e%2e", "a%2Fb"];
const typeOf = (value: unknown) => (Array.isArray(value) ? "array" : value === null ? "null" : typeof value);

/** Bodies that are not JSON, or not JSON that any reader should take, derived from the valid body. */
function malformedBodies(body: unknown): fc.Arbitrary<Verbatim> {
  const json = JSON.stringify(body) ?? "";
  return fc.oneof(
    fc.nat({ max: Math.max(0, json.length - 1) }).map((end) => new Verbatim(json.slice(0, end))),
    fc.constantFrom("{", "", "nul", "{'a': 1}", '{"a":}', `${json}}`, `${json},`, `\uFEFF${json}`, "[1,2", '{"__proto__": {"polluted": true}}', '{"constructor": {"prototype": {"polluted": true}}}').map((raw) => new Verbatim(raw)),
  );
}

/**
 * Invalid variants of a valid request, each by one mutation: a field dropped, a value of the wrong
 * type, a number out of range, an over-long string, a NUL character, an unknown enum value, a value
 * nested too deep, an unknown field, a body that is not JSON, a URL part with a broken percent-encoding.
 */
export function mutantsOf(valid: RequestInput): fc.Arbitrary<Mutant> {
  const sites = sitesOf(valid);
  const inner = sites.filter((site) => site.at.length > 0 || site.part === "body");
  const objects = sites.filter((site) => isPlainObject(site.value));
  const withKeys = objects.filter((site) => Object.keys(site.value as object).length > 0);
  const numbers = sites.filter((site) => typeof site.value === "number");
  const strings = sites.filter((site) => isStringLike(site.value) && site.at.length > 0);
  const urlStrings = strings.filter((site) => site.part !== "body");
  const mutant = (mutation: string, input: RequestInput): Mutant => ({ input, mutation });
  const at = (site: Site) => `${site.part}${site.at.map((key) => `[${JSON.stringify(key)}]`).join("")}`;

  const kinds: fc.Arbitrary<Mutant>[] = [];
  if (withKeys.length > 0) {
    kinds.push(
      fc
        .constantFrom(...withKeys)
        .chain((site) => fc.constantFrom(...Object.keys(site.value as object)).map((key) => mutant(`dropped ${at(site)}.${key}`, withValue(valid, { ...site, at: [...site.at, key] }, undefined)))),
    );
  }
  if (inner.length > 0) {
    kinds.push(
      fc
        .constantFrom(...inner)
        .chain((site) => fc.constantFrom(...WRONG_TYPES.filter((other) => typeOf(other) !== typeOf(site.value))).map((other) => mutant(`wrong type at ${at(site)}`, withValue(valid, site, other)))),
      fc
        .tuple(fc.constantFrom(...inner), fc.constantFrom(20, 65, 5_000), fc.boolean())
        .map(([site, depth, asObject]) => mutant(`${depth} levels deep at ${at(site)}`, withValue(valid, site, nested(depth, asObject)))),
    );
  }
  if (numbers.length > 0) {
    kinds.push(fc.tuple(fc.constantFrom(...numbers), fc.constantFrom(...OUT_OF_RANGE)).map(([site, number]) => mutant(`out-of-range number at ${at(site)}`, withValue(valid, site, number))));
  }
  if (strings.length > 0) {
    // Characters, not UTF-16 units: a NUL put inside a surrogate pair would leave text that is not Unicode.
    const original = (value: unknown) => Array.from(typeof value === "string" ? value : "id");
    kinds.push(
      fc.tuple(fc.constantFrom(...strings), fc.constantFrom(300, 5_000, 100_000)).map(([site, length]) => mutant(`over-long string at ${at(site)}`, withValue(valid, site, "x".repeat(length)))),
      fc.tuple(fc.constantFrom(...strings), fc.nat()).map(([site, position]) => {
        const characters = original(site.value);
        characters.splice(position % (characters.length + 1), 0, "\u0000");
        return mutant(`NUL character at ${at(site)}`, withValue(valid, site, characters.join("")));
      }),
      fc.tuple(fc.constantFrom(...strings), fc.constantFrom(...UNKNOWN_ENUM_VALUES)).map(([site, value]) => mutant(`unknown value at ${at(site)}`, withValue(valid, site, value))),
    );
  }
  if (objects.length > 0) {
    kinds.push(
      fc
        .tuple(fc.constantFrom(...objects), fc.constantFrom("unexpected_field", "__proto__", "name\u0000"))
        .map(([site, key]) => mutant(`unknown field ${JSON.stringify(key)} at ${at(site)}`, withValue(valid, { ...site, at: [...site.at, key] }, { polluted: true }))),
    );
  }
  if (urlStrings.length > 0) {
    kinds.push(fc.tuple(fc.constantFrom(...urlStrings), fc.constantFrom(...BAD_PERCENT_ENCODINGS)).map(([site, raw]) => mutant(`broken percent-encoding at ${at(site)}`, withValue(valid, site, new Verbatim(raw)))));
  }
  if ("body" in valid) kinds.push(malformedBodies(valid.body).map((raw) => mutant("malformed JSON body", { ...valid, body: raw })));
  // An operation with no input at all can still be sent an unknown query parameter.
  if (kinds.length === 0) kinds.push(fc.constant(mutant("unknown query parameter", { ...valid, query: { unexpected: "\u0000" } })));
  return fc.oneof(...kinds);
}
