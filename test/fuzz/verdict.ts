/** Which public contract an answer is judged by. */
export type Contract = "polar" | "better-auth";

/** One request the fuzzer sent and what came back. */
export interface Exchange {
  contract: Contract;
  operation: string;
  caller: string;
  /** How the request was made invalid; absent for a request valid by its schemas. */
  mutation?: string;
  method: string;
  target: string;
  body?: string;
  status: number;
  contentType: string;
  text: string;
}

/** Signs that an answer gives away how the service is built. */
const LEAKS: { what: string; pattern: RegExp }[] = [
  { what: "a stack frame", pattern: /^\s*at (?:async )?\S+ \(?(?:file:|node:|\/)[^\n]*:\d+:\d+\)?$/m },
  { what: "an error with its stack", pattern: /\b\w*Error: [^\n]*\n\s+at / },
  { what: "a file path", pattern: /(?<![\w.:/-])\/(?:[\w.@-]+\/)+[\w.@-]+\.(?:ts|js|mjs|cjs|sql)\b/ },
  { what: "node_modules", pattern: /node_modules/ },
  { what: "a source line", pattern: /\.(?:ts|js|mjs|cjs):\d+/ },
  { what: "SQL", pattern: /\b(?:select\s+[\w*"., ]+\s+from\s+"?\w|insert\s+into\s+"?\w|update\s+"?\w+"?\s+set\s|delete\s+from\s+"?\w)/i },
  {
    what: "a Postgres error",
    pattern: /relation "|violates (?:foreign key|unique|not-null|check) constraint|duplicate key value|syntax error at or near|invalid input syntax for|out of range for type|column "[^"]*" (?:of relation|does not exist)|current transaction is aborted/,
  },
  { what: "knex or pg", pattern: /\bknex\b|\bpg-(?:protocol|pool)\b/i },
  { what: "a JavaScript fault", pattern: /\b(?:TypeError|ReferenceError|RangeError)\b|Cannot read propert|is not a function|undefined is not/ },
];

/** Answers that are files, not text an error could be written into. */
const TEXT_TYPES = /json|text|html|xml|javascript/;

/**
 * Polar's 422 types that are business rules, not the input's shape: `value_error` from invalidField,
 * and `custom` from a zod refine (allowed, but recorded, so that each one can be looked at).
 */
const BUSINESS_RULES = new Set(["value_error", "custom"]);

/** A refusal of a request valid by its schemas that is right all the same, and why. */
export interface Allowed {
  operation: string | RegExp;
  /** Polar: the refused place (`body.organization_id`) and type; better-auth: a pattern of the message. */
  place: string | RegExp;
  reason: string;
}

export interface Verdict {
  /** What makes the answer a failure. */
  problems: string[];
  /** Refusals by a business rule of the `custom` kind, for review. */
  notes: string[];
}

const matches = (pattern: string | RegExp, value: string) => (typeof pattern === "string" ? pattern === value : pattern.test(value));

/** The request as text, to tell echoed input apart from what the service gave away itself. */
function requestText(exchange: Exchange): string {
  let target = exchange.target;
  try {
    target = decodeURIComponent(exchange.target);
  } catch {
    // A target with a broken percent-encoding is compared as it was sent.
  }
  return `${target}\n${exchange.body ?? ""}`;
}

function leaks(exchange: Exchange): string[] {
  if (exchange.contentType !== "" && !TEXT_TYPES.test(exchange.contentType)) return [];
  // JSON writes a stack's line breaks as \n.
  const text = exchange.text.replace(/\\n/g, "\n");
  const sent = requestText(exchange);
  return LEAKS.flatMap(({ what, pattern }) => {
    const found = pattern.exec(text);
    return found && !sent.includes(found[0]) ? [`the answer carries ${what}: ${JSON.stringify(found[0])}`] : [];
  });
}

interface PolarIssue {
  loc?: (string | number)[];
  type?: string;
  msg?: string;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A request valid by its schemas refused as invalid: Polar's 422 of a schema-level type, better-auth's VALIDATION_ERROR. */
function validRefused(exchange: Exchange, allowed: Allowed[]): Verdict {
  const problems: string[] = [];
  const notes: string[] = [];
  const isAllowed = (place: string) => allowed.some((entry) => matches(entry.operation, exchange.operation) && matches(entry.place, place));
  const answer = parsed(exchange.text);
  if (exchange.contract === "polar" && exchange.status === 422) {
    const issues = (answer as { detail?: PolarIssue[] } | undefined)?.detail;
    for (const issue of Array.isArray(issues) ? issues : [{ type: "unreadable" }]) {
      const place = `${(issue.loc ?? []).join(".")} ${issue.type ?? ""}`;
      if (issue.type === "custom") notes.push(`${exchange.operation} refused ${place}: ${issue.msg ?? ""}`);
      else if (!BUSINESS_RULES.has(issue.type ?? "") && !isAllowed(place)) problems.push(`a valid request was refused: ${place}: ${issue.msg ?? ""}`);
    }
  }
  if (exchange.contract === "better-auth" && exchange.status === 400) {
    const { code, message } = (answer ?? {}) as { code?: string; message?: string };
    if (code === "VALIDATION_ERROR" && !isAllowed(message ?? "")) problems.push(`a valid request was refused: ${message ?? ""}`);
  }
  return { problems, notes };
}

/** What is wrong with an answer: a 5xx, internals given away, or (for a valid request) a refusal of its shape. */
export function verdictOn(exchange: Exchange, allowed: Allowed[]): Verdict {
  const problems: string[] = [];
  if (exchange.status >= 500) problems.push(`answered ${exchange.status}`);
  problems.push(...leaks(exchange));
  if (exchange.mutation !== undefined) return { problems, notes: [] };
  const refused = validRefused(exchange, allowed);
  return { problems: [...problems, ...refused.problems], notes: refused.notes };
}

const excerpt = (text: string, length = 600) => (text.length > length ? `${text.slice(0, length)}… (${text.length} characters)` : text);

/** A finding as a person reads it: the request, who sent it, and what came back. */
export function findingOf(exchange: Exchange, problems: string[]): string {
  return [
    problems.join("; "),
    `  ${exchange.method} ${excerpt(exchange.target, 300)} as ${exchange.caller}${exchange.mutation ? ` (invalid: ${exchange.mutation})` : " (valid)"}`,
    ...(exchange.body !== undefined ? [`  body: ${excerpt(exchange.body)}`] : []),
    `  → ${exchange.status} ${exchange.contentType}: ${excerpt(exchange.text)}`,
  ].join("\n");
}
