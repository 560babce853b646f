/**
 * Postgres's data exceptions (SQLSTATE class 22) that a value a client sent can cause, each with the
 * type and message its refusal carries. Schemas refuse such values first; these are what slips past
 * them (a date that overflows once moved to UTC, a zone only the runtime knows, text Postgres cannot
 * hold), so that no request can turn one into a 500.
 */
const VALUE_EXCEPTIONS: Record<string, { type: string; message: string }> = {
  "22003": { type: "numeric_value_out_of_range", message: "A number in the request is out of the range that can be stored" },
  "22007": { type: "invalid_datetime_format", message: "A date or time in the request is not in a form that can be stored" },
  "22008": { type: "datetime_field_overflow", message: "A date or time in the request is out of the range that can be stored" },
  "22009": { type: "invalid_time_zone_displacement_value", message: "A date or time in the request has an offset that cannot be stored" },
  "22021": { type: "character_not_in_repertoire", message: "Text in the request holds a character that cannot be stored" },
  "22023": { type: "invalid_parameter_value", message: "A value in the request is not one that can be used (an unknown time zone, say)" },
  "22P02": { type: "invalid_text_representation", message: "A value in the request is not in the form its field takes" },
  "22P05": { type: "untranslatable_character", message: "Text in the request holds a character that cannot be stored" },
};

/**
 * How to refuse the value behind a failed statement, or null when the failure is not about a value.
 * Only the SQLSTATE is read: the message of a query error carries the statement and its bindings.
 */
export function refusedValueOf(error: unknown): { type: string; message: string } | null {
  if (typeof error !== "object" || error === null || !("code" in error) || typeof error.code !== "string") return null;
  return VALUE_EXCEPTIONS[error.code] ?? null;
}
