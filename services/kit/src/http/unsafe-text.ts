import type { ValidationIssue } from "./errors.js";

const NUL = "\u0000";

/**
 * Every place in a request's input (keys included) where a string carries a NUL character. Postgres
 * cannot store one in text and fails the whole statement, so such input is refused up front, by one
 * rule for every endpoint, as a validation error rather than a 500. A loop, not recursion: a body may
 * nest deeply.
 */
export function nulCharacterIssues(input: unknown, location: ValidationIssue["location"]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const pending: { value: unknown; path: PropertyKey[] }[] = [{ value: input, path: [] }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === "string") {
      if (value.includes(NUL)) issues.push({ location, path, message: "Text must not contain NUL characters (\\u0000)", code: "string_nul_character" });
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    for (const [key, child] of Object.entries(value)) {
      const childPath = [...path, Array.isArray(value) ? Number(key) : key];
      if (key.includes(NUL)) issues.push({ location, path: childPath, message: "Names must not contain NUL characters (\\u0000)", code: "string_nul_character" });
      pending.push({ value: child, path: childPath });
    }
  }
  return issues.reverse();
}
