import { z } from "zod";

/*
 * Input schemas whose API description zod alone would get wrong: each says, in JSON Schema, just what
 * it takes, so that a client (or a fuzzer) going by the description is not refused.
 */

/**
 * A yes/no query parameter. It reads `true`/`false` (and zod's stringbool's other spellings: 1/0,
 * yes/no, on/off…) and is described as the boolean it is, not as any string.
 */
export const queryFlag = () => z.stringbool().meta({ type: "boolean" });

/**
 * Text trimmed before its length is checked. A pattern says that at least `min` characters must stand
 * between the first and last that are not blank: minLength alone would count the blanks.
 */
export function trimmedText({ min, max }: { min: number; max: number }) {
  const text = z.string().trim().min(min).max(max);
  if (min < 1) return text;
  return text.meta({ pattern: min === 1 ? "\\S" : `^\\s*\\S[\\s\\S]{${min - 2},}\\S\\s*$` });
}
