import { z } from "zod";

/** What /ok answers when the API is up. */
export const ApiAnswers = z.strictObject({ ok: z.boolean() });

export const ErrorPageQuery = z.object({ error: z.string().optional() });
