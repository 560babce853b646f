import { z } from "zod";
import { ValidationError, type ValidationIssue } from "@tollgate/kit";
import type { CustomFieldRow } from "./custom-fields.sql.js";
import type { PROPERTIES } from "./properties.js";
import type { CustomFieldData } from "./schemas.js";

/**
 * The rule for answers to a seller's custom fields: each answer must be of its field's type and
 * within its properties, and only the fields the product asks may be answered. Refusals are worded
 * and typed as Polar's (pydantic's) are, at `custom_field_data.<slug>`.
 */

/** Answers by slug, as checkouts take them and orders keep them. */
export type Answers = z.output<typeof CustomFieldData>;
type Answer = Answers[string];

/** A field a product asks, and whether it must be answered before paying. */
export type AskedField = Pick<CustomFieldRow, "slug" | "type" | "properties"> & { required: boolean };

interface Refusal {
  code: string;
  message: string;
}

type PropertiesOf<Type extends keyof typeof PROPERTIES> = z.output<(typeof PROPERTIES)[Type]>;

const refusal = (code: string, message: string): Refusal => ({ code, message });
const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

function outOfBounds(value: number, { ge, le }: { ge?: number | undefined; le?: number | undefined }, shown: (bound: number) => string): Refusal | undefined {
  if (ge !== undefined && value < ge) return refusal("greater_than_equal", `Input should be greater than or equal to ${shown(ge)}`);
  if (le !== undefined && value > le) return refusal("less_than_equal", `Input should be less than or equal to ${shown(le)}`);
  return undefined;
}

function textRefusal({ min_length: min, max_length: max }: PropertiesOf<"text">, answer: Answer): Refusal | undefined {
  if (typeof answer !== "string") return refusal("string_type", "Input should be a valid string");
  // Characters as Polar counts them: code points, not UTF-16 units.
  const length = [...answer].length;
  if (min !== undefined && length < min) return refusal("string_too_short", `String should have at least ${counted(min, "character")}`);
  if (max !== undefined && length > max) return refusal("string_too_long", `String should have at most ${counted(max, "character")}`);
  return undefined;
}

function numberRefusal(properties: PropertiesOf<"number">, answer: Answer): Refusal | undefined {
  if (typeof answer !== "number") return refusal("int_type", "Input should be a valid integer");
  if (!Number.isInteger(answer)) return refusal("int_from_float", "Input should be a valid integer, got a number with a fractional part");
  return outOfBounds(answer, properties, String);
}

const DAY_SECONDS = 86_400;
const isoDateOrTime = z.union([z.iso.date(), z.iso.datetime({ offset: true, local: true })]);

/** A day (since 1970-01-01) as its ISO date, for the message; one past what a four-digit year names is given as its number. */
function dayShown(day: number): string {
  const date = new Date(day * DAY_SECONDS * 1000);
  const iso = Number.isNaN(date.getTime()) ? "" : date.toISOString();
  return /^\d{4}-/.test(iso) ? iso.slice(0, 10) : String(day);
}

/** A date is bounded by days: the day written (its first ten characters) against the days of the bounds, Unix seconds in UTC. */
function dateRefusal({ ge, le }: PropertiesOf<"date">, answer: Answer): Refusal | undefined {
  if (typeof answer !== "string" || !isoDateOrTime.safeParse(answer).success) return refusal("datetime_from_date_parsing", "Input should be a valid datetime or date");
  const day = Date.parse(answer.slice(0, 10)) / (DAY_SECONDS * 1000);
  const dayOf = (seconds: number | undefined) => (seconds === undefined ? undefined : Math.floor(seconds / DAY_SECONDS));
  return outOfBounds(day, { ge: dayOf(ge), le: dayOf(le) }, dayShown);
}

const checkboxRefusal = (answer: Answer) => (typeof answer === "boolean" ? undefined : refusal("bool_type", "Input should be a valid boolean"));

function selectRefusal({ options }: PropertiesOf<"select">, answer: Answer): Refusal | undefined {
  const values = options.map((option) => option.value);
  if (typeof answer === "string" && values.includes(answer)) return undefined;
  const quoted = values.map((value) => `'${value}'`);
  const listed = quoted.length > 1 ? `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1) ?? ""}` : quoted.join("");
  return refusal("literal_error", `Input should be ${listed}`);
}

/** What is wrong with a given answer for its field's type; properties are stored as PROPERTIES took them. */
function typeRefusal({ type, properties }: AskedField, answer: Answer): Refusal | undefined {
  switch (type) {
    case "text":
      return textRefusal(properties, answer);
    case "number":
      return numberRefusal(properties, answer);
    case "date":
      return dateRefusal(properties, answer);
    case "checkbox":
      return checkboxRefusal(answer);
    case "select":
      return selectRefusal(properties as PropertiesOf<"select">, answer);
  }
}

/**
 * What is wrong with one field's answer. Null is no answer. When `complete` (the buyer is paying),
 * a required field left blank is missing, and a required checkbox (terms of sale) must be ticked.
 */
function refusalOf(field: AskedField, answer: Answer | undefined, complete: boolean): Refusal | undefined {
  if (complete && field.required) {
    if (answer === undefined || answer === null || answer === "") return refusal("missing", "Field required");
    if (field.type === "checkbox" && answer === false) return refusal("literal_error", "Input should be True");
  }
  return answer === undefined || answer === null ? undefined : typeRefusal(field, answer);
}

/**
 * Every problem with `answers` to a product asking `fields`, each at its slug: an answer of the
 * wrong type or outside its field's properties, an answer to a field the product does not ask, and
 * when `complete`, a required field left unanswered.
 */
export function answerIssues(fields: AskedField[], answers: Answers, complete: boolean): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const refuse = (slug: string, { code, message }: Refusal, input: unknown) => issues.push({ location: "body", path: ["custom_field_data", slug], message, code, input });
  for (const field of fields) {
    const answer = Object.hasOwn(answers, field.slug) ? answers[field.slug] : undefined;
    const refused = refusalOf(field, answer, complete);
    if (refused) refuse(field.slug, refused, answer ?? null);
  }
  const asked = new Set(fields.map((field) => field.slug));
  for (const [slug, answer] of Object.entries(answers)) {
    if (!asked.has(slug)) refuse(slug, refusal("extra_forbidden", "Extra inputs are not permitted"), answer);
  }
  return issues;
}

/**
 * The answers kept after `given` is taken: the stored answers to fields the product still asks,
 * with the given ones over them. Given answers are checked first and, if any is refused, nothing is
 * taken (a ValidationError naming each refusal).
 */
export function revisedAnswers(fields: AskedField[], stored: Answers, given: Answers | undefined): Answers {
  const issues = given ? answerIssues(fields, given, false) : [];
  if (issues.length > 0) throw new ValidationError(issues);
  const asked = new Set(fields.map((field) => field.slug));
  return { ...Object.fromEntries(Object.entries(stored).filter(([slug]) => asked.has(slug))), ...given };
}
