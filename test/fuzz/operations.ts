import fc from "fast-check";
import { arbitraryFor, text, type JsonSchema, type SchemaArbitraryOptions } from "./arbitraries.js";
import { Verbatim, type RequestInput } from "./mutations.js";

/** The parts of an OpenAPI 3.1 document that requests are made from. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

interface OpenApiOperation {
  parameters?: { in: string; name: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface Parameter {
  name: string;
  schema: JsonSchema;
  required: boolean;
}

/** One method on one path, with the schemas of what it reads. */
export interface Operation {
  method: string;
  /** The path as the document writes it, `{name}` for each parameter. */
  path: string;
  /** `POST /v1/products/`: how reports and settings name it. */
  key: string;
  pathParameters: Parameter[];
  queryParameters: Parameter[];
  /** The JSON body's schema, when the operation takes one. */
  body?: JsonSchema;
}

export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = (where: string) =>
        (operation.parameters ?? []).filter((parameter) => parameter.in === where).map(({ name, schema, required }) => ({ name, schema, required: required === true || where === "path" }));
      const body = operation.requestBody?.content?.["application/json"]?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        key: `${method.toUpperCase()} ${path}`,
        pathParameters: parameters("path"),
        queryParameters: parameters("query"),
        ...(body && { body }),
      });
    }
  }
  return operations;
}

/** A path segment that is any text but one URLs give a meaning of their own (`.` and `..` move up the path). */
export const randomSegment = text(1, 40).filter((segment) => segment !== "." && segment !== "..");

export interface InputOptions extends SchemaArbitraryOptions {
  /** Values for a path parameter; random text when absent. */
  pathValue?: (operation: Operation, parameter: Parameter) => fc.Arbitrary<unknown> | undefined;
}

/** Requests valid for the operation's schemas: every path parameter, required query parameters and some optional ones, a body. */
export function validInputs(operation: Operation, options: InputOptions): fc.Arbitrary<RequestInput> {
  const path = fc.record(Object.fromEntries(operation.pathParameters.map((parameter) => [parameter.name, options.pathValue?.(operation, parameter) ?? randomSegment])), { noNullPrototype: true });
  const query = fc.record(Object.fromEntries(operation.queryParameters.map((parameter) => [parameter.name, arbitraryFor(parameter.schema, options, [parameter.name])])), {
    requiredKeys: operation.queryParameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    noNullPrototype: true,
  });
  const body = operation.body ? arbitraryFor(operation.body, options) : undefined;
  return fc.record({ path, query, ...(body && { body }) }, { noNullPrototype: true });
}

/**
 * JSON text with each Verbatim inside spliced in as written: how a value nested deeper than
 * JSON.stringify's own recursion goes is put in a body.
 */
function jsonText(value: unknown): string {
  const spliced: string[] = [];
  // A NUL-quoted index stands in for each splice: generated strings never hold NUL on both sides of digits.
  const text = JSON.stringify(value, (_key, item: unknown) => (item instanceof Verbatim ? `\u0000${spliced.push(item.text) - 1}\u0000` : item)) ?? "";
  return text.replace(/"\\u0000(\d+)\\u0000"/g, (_, index: string) => spliced[Number(index)] ?? "");
}

/** One query or path value as text: lists are repeated parameters, other non-strings their JSON. */
const asText = (value: unknown): string => (typeof value === "string" ? value : jsonText(value));
const encoded = (value: unknown) => (value instanceof Verbatim ? value.text : encodeURIComponent(asText(value)));

/** The request written out: its path and query as sent, and its body's text (absent: none). */
export function written(operation: Operation, input: RequestInput): { target: string; body?: string } {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encoded(input.path[name]));
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(input.query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) pairs.push(`${encodeURIComponent(name)}=${encoded(item)}`);
  }
  const target = pairs.length > 0 ? `${path}?${pairs.join("&")}` : path;
  if (!("body" in input) || input.body === undefined) return { target };
  return { target, body: input.body instanceof Verbatim ? input.body.text : jsonText(input.body) };
}
