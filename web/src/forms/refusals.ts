import { describeError, failureOf } from "../api/client";
import { processorText } from "../api/error-messages";

/**
 * Puts a rejected request's messages next to their fields: each 422 issue's `loc` after "body", joined
 * with dots ("billing_address.country"), is looked up in `fieldOf`. Returns what is left to say above
 * the button (every other failure in words), or null when each message found its field.
 */
export function placeRefusals<Name extends string>(reason: unknown, fieldOf: Record<string, Name>, setError: (name: Name, error: { message: string }) => void): string | null {
  const error = failureOf(reason);
  const detail = (error.body as { detail?: unknown } | null)?.detail;
  if (error.status !== 422 || !Array.isArray(detail)) return describeError(error);
  const unplaced: string[] = [];
  for (const issue of detail as { loc: (string | number)[]; msg: string }[]) {
    const field = fieldOf[issue.loc.slice(1).join(".")];
    if (field) setError(field, { message: processorText(issue.msg) });
    else unplaced.push(processorText(issue.msg));
  }
  return unplaced.length > 0 ? unplaced.join(" ") : null;
}

/** A refused change that has no fields to show it beside (a button, a choice in a list): the API's own words for it. */
export const refusalText = (reason: unknown): string => placeRefusals(reason, {}, () => undefined) ?? "";
