import { ValidationError } from "@tollgate/kit";
import { describe, expect, it } from "vitest";
import { answerIssues, revisedAnswers, type AskedField } from "../../src/custom-fields/answers.js";

const field = (slug: string, type: AskedField["type"], properties: Record<string, unknown> = {}, required = false): AskedField => ({ slug, type, properties, required });

const company = field("company", "text", { min_length: 2, max_length: 5 });
const seats = field("seats", "number", { ge: 1, le: 10 });
// 2024-01-01 and 2024-12-31, as Unix seconds.
const start = field("start", "date", { ge: 1_704_067_200, le: 1_735_603_200 });
const terms = field("terms", "checkbox", {}, true);
const size = field("size", "select", { options: [{ value: "s", label: "Small" }, { value: "m", label: "Medium" }, { value: "l", label: "Large" }] });
const FIELDS = [company, seats, start, terms, size];

/** Each refusal as `slug type: message`. */
const refusals = (answers: Record<string, string | number | boolean | null>, complete = false) =>
  answerIssues(FIELDS, answers, complete).map((issue) => `${String(issue.path[1])} ${issue.code}: ${issue.message}`);

describe("answers to custom fields", () => {
  it("take answers of each field's type within its properties, and null as no answer", () => {
    expect(refusals({ company: "Acme", seats: 10, start: "2024-06-30", terms: true, size: "m" })).toEqual([]);
    expect(refusals({ company: "Acme", seats: 1, start: "2024-01-01T23:30:00Z", terms: false, size: "s" })).toEqual([]);
    expect(refusals({ company: null, seats: null, start: null, terms: null, size: null })).toEqual([]);
    // Characters are counted as code points: five emoji are five characters.
    expect(refusals({ company: "🙂🙂🙂🙂🙂" })).toEqual([]);
  });

  it("refuse text out of length, numbers out of range or not whole, dates out of range or not dates, and options that do not exist", () => {
    expect(refusals({ company: "A", seats: 0, start: "2023-12-31", size: "xl" })).toEqual([
      "company string_too_short: String should have at least 2 characters",
      "seats greater_than_equal: Input should be greater than or equal to 1",
      "start greater_than_equal: Input should be greater than or equal to 2024-01-01",
      "size literal_error: Input should be 's', 'm' or 'l'",
    ]);
    expect(refusals({ company: "x".repeat(6), seats: 11, start: "2025-01-01" })).toEqual([
      "company string_too_long: String should have at most 5 characters",
      "seats less_than_equal: Input should be less than or equal to 10",
      "start less_than_equal: Input should be less than or equal to 2024-12-31",
    ]);
    expect(refusals({ seats: 2.5, start: "2024-02-30" })).toEqual([
      "seats int_from_float: Input should be a valid integer, got a number with a fractional part",
      "start datetime_from_date_parsing: Input should be a valid datetime or date",
    ]);
  });

  it("refuse an answer of another type", () => {
    expect(refusals({ company: 12, seats: "3", start: 1_704_067_200, terms: "yes", size: true })).toEqual([
      "company string_type: Input should be a valid string",
      "seats int_type: Input should be a valid integer",
      "start datetime_from_date_parsing: Input should be a valid datetime or date",
      "terms bool_type: Input should be a valid boolean",
      "size literal_error: Input should be 's', 'm' or 'l'",
    ]);
  });

  it("refuse answers to fields the product does not ask", () => {
    expect(answerIssues(FIELDS, { company: "Acme", admin: true }, false)).toEqual([
      { location: "body", path: ["custom_field_data", "admin"], code: "extra_forbidden", message: "Extra inputs are not permitted", input: true },
    ]);
  });

  it("ask for required fields only when complete: blank is missing, and a required box must be ticked", () => {
    expect(refusals({})).toEqual([]);
    expect(refusals({ terms: false })).toEqual([]);
    expect(refusals({}, true)).toEqual(["terms missing: Field required"]);
    expect(refusals({ terms: null }, true)).toEqual(["terms missing: Field required"]);
    expect(refusals({ terms: false }, true)).toEqual(["terms literal_error: Input should be True"]);
    expect(answerIssues([field("vat", "text", {}, true)], { vat: "" }, true).map((issue) => issue.code)).toEqual(["missing"]);
  });

  it("keep what was answered before for fields still asked, with the new answers over it, or take nothing when one is refused", () => {
    const stored = { company: "Acme", seats: 3, retired: "old question" };
    expect(revisedAnswers(FIELDS, stored, { seats: 4 })).toEqual({ company: "Acme", seats: 4 });
    expect(revisedAnswers(FIELDS, stored, undefined)).toEqual({ company: "Acme", seats: 3 });
    expect(() => revisedAnswers(FIELDS, stored, { seats: 4, size: "xl" })).toThrow(ValidationError);
    expect(() => revisedAnswers(FIELDS, stored, { company: "x".repeat(6), unknown: "?" })).toThrow(
      expect.objectContaining({ issues: [expect.objectContaining({ path: ["custom_field_data", "company"] }), expect.objectContaining({ path: ["custom_field_data", "unknown"] })] }),
    );
  });
});
