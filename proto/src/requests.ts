import { z } from "zod";

export interface RequestDefinition<Request extends z.ZodType = z.ZodType, Response extends z.ZodType = z.ZodType> {
  /** Dotted name, `<owning service>.<resource>.<verb>`; the subject is derived from it. */
  readonly name: string;
  readonly request: Request;
  readonly response: Response;
}

/** Declares a request/reply pair answered by one service; both sides validate with these schemas. */
export function defineRequest<Request extends z.ZodType, Response extends z.ZodType>(
  name: string,
  schemas: { request: Request; response: Response },
): RequestDefinition<Request, Response> {
  return { name, ...schemas };
}

/** What a responder sends back: the response, or an error the caller rethrows. */
export const Reply = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.object({ code: z.string(), message: z.string() }) }),
]);
export type Reply = z.infer<typeof Reply>;
