/**
 * Text from outside (a webhook receiver's answer, an error message) as Postgres can store it:
 * without NUL, which no text column takes (and which fails a whole statement, every seller's row in
 * it), and as valid UTF-8, a lone surrogate becoming U+FFFD (encoding it to UTF-8 does that).
 */
export const storableText = (text: string): string => Buffer.from(text.replaceAll("\u0000", ""), "utf8").toString("utf8");
