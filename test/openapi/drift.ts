import type { JsonSchema, SdkOperation } from "./polar-sdk.js";
import { shapeDifferences } from "./shape-diff.js";

interface Operation {
  parameters?: { in: string; name: string }[];
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
}

/** Our `/v1/openapi.json`, as far as the comparison reads it. */
export interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** Where our API and an SDK's operations part, each a line for the reviewed report. */
export interface Drift {
  /** Operations of the SDK that we do not offer. */
  missing: string[];
  /** Operations we offer that the SDK does not know. */
  ours: string[];
  /** Query parameters sent and not read, or read and not sent. */
  parameters: string[];
  /** Answers whose fields differ from the SDK's model. */
  answers: string[];
}

/** `/v1/checkouts/{id}` and `/v1/checkouts/{checkout_id}` are the same route. */
const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, "{}")}`;

/**
 * How `document` differs from what `sdk` expects: operations either side lacks, the query parameters
 * the SDK sends, and the fields of each answer. An operation whose status the SDK does not name (1.x
 * takes any 2xx) is compared with our first successful answer.
 */
export function driftOf(document: Document, sdk: SdkOperation[]): Drift {
  const components = document.components?.schemas ?? {};
  const served = new Map<string, Operation>();
  for (const [path, methods] of Object.entries(document.paths)) for (const [method, operation] of Object.entries(methods)) served.set(routeKey(method, path), operation);
  const theirs = new Map(sdk.map((operation) => [routeKey(operation.method, operation.path), operation]));
  const drift: Drift = {
    missing: [...theirs.keys()].filter((key) => !served.has(key)),
    ours: [...served.keys()].filter((key) => !theirs.has(key)),
    parameters: [],
    answers: [],
  };
  for (const [key, operation] of served) {
    const expected = theirs.get(key);
    if (!expected) continue;
    const read = new Set((operation.parameters ?? []).filter((parameter) => parameter.in === "query").map((parameter) => parameter.name));
    for (const name of expected.query) if (!read.has(name)) drift.parameters.push(`${key}: \`${name}\` is sent by the SDK and not read by Tollgate`);
    for (const name of read) if (!expected.query.includes(name)) drift.parameters.push(`${key}: \`${name}\` is read by Tollgate and not sent by the SDK`);
    const successes = Object.keys(operation.responses).filter((status) => status.startsWith("2"));
    const status = expected.status === null ? successes[0] : String(expected.status);
    const success = status === undefined ? undefined : operation.responses[status];
    if (!success) {
      if (expected.status !== null) drift.answers.push(`${key}: the SDK expects ${expected.status}; Tollgate answers ${successes.join(", ")}`);
      continue;
    }
    const schema = success.content?.["application/json"]?.schema;
    if (expected.response && !schema) drift.answers.push(`${key}: the SDK expects ${expected.responseName ?? "a body"}; Tollgate declares none`);
    if (expected.response && schema) for (const difference of shapeDifferences(schema, components, expected.response)) drift.answers.push(`${key} (${expected.responseName ?? ""}): ${difference}`);
  }
  return drift;
}

/** A report section: a title and its lines, sorted, or "None.". */
export const section = (title: string, lines: string[]): string[] => [`## ${title}`, "", ...(lines.length ? [...lines].sort().map((line) => `- ${line}`) : ["None."]), ""];
