import type { IdentityClaims } from "@tollgate/proto";
import type { Request, Response, Router } from "express";
import type { z } from "zod";
import { ValidationError, type ValidationIssue } from "./errors.js";
import { nulCharacterIssues } from "./unsafe-text.js";
import { answerIn, apiVersionOf } from "../polar/api-versions.js";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Schema = z.ZodType;
/** Path parameters and query strings are always objects of named values. */
type ObjectSchema = z.ZodType<unknown, Record<string, unknown>>;
type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface EndpointOptions<Body extends Schema | undefined, Query extends ObjectSchema | undefined, Params extends ObjectSchema | undefined> {
  method: Method;
  body?: Body;
  query?: Query;
  params?: Params;
  /** Status of a successful answer (201 on create, 204 when nothing is returned). */
  status?: number;
  /**
   * The successful answer as it goes out (JSON: dates as ISO strings): it describes the endpoint in
   * the API's OpenAPI document, and with CHECK_RESPONSES on, every answer is checked against it.
   */
  response?: Schema;
  /** What the endpoint does, in one line of the API reference. */
  summary?: string;
  /** The reference's section the endpoint is listed under. */
  tag?: string;
  /** Answers with something other than JSON (a file, a page, a redirect): described, never checked. */
  produces?: string;
}

/** What an endpoint declares of itself, for the API's description. */
export interface EndpointDescription {
  path: string;
  method: Method;
  status: number;
  body?: Schema;
  query?: ObjectSchema;
  params?: ObjectSchema;
  response?: Schema;
  summary?: string;
  tag?: string;
  produces?: string;
}

export interface EndpointContext<Body, Query, Params> {
  body: Body;
  query: Query;
  params: Params;
  identity: IdentityClaims;
  req: Request;
  res: Response;
}

export interface Endpoint {
  readonly path: string;
  readonly method: Method;
  readonly description: EndpointDescription;
  mount(router: Router): void;
}

/** Set on an express app (`app.locals`) to check every answer against its endpoint's declared schema. */
export const CHECK_RESPONSES = "checkResponses";

/** An answer that does not match what its endpoint declares: a fault of the service, found in tests. */
export class UndeclaredResponseError extends Error {
  constructor(path: string, error: z.ZodError) {
    super(`${path} answered outside its declared response: ${error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`);
    this.name = "UndeclaredResponseError";
  }
}

/**
 * Declares one HTTP endpoint with the schemas of everything it reads, in the manner of
 * better-auth's `createAuthEndpoint(path, {method, body}, handler)`. Input is parsed before the
 * handler runs; a failure is a {@link ValidationError} that the error mapper renders in the
 * contract's shape, as is any text carrying a NUL character, which no schema need think of. The
 * handler's return value is sent as JSON, unless it answered on its own.
 */
export function defineEndpoint<
  Body extends Schema | undefined = undefined,
  Query extends ObjectSchema | undefined = undefined,
  Params extends ObjectSchema | undefined = undefined,
>(
  path: string,
  options: EndpointOptions<Body, Query, Params>,
  handler: (context: EndpointContext<Output<Body>, Output<Query>, Output<Params>>) => Promise<unknown>,
): Endpoint {
  const status = options.status ?? 200;
  const { method, body, query, params, response, summary, tag, produces } = options;
  return {
    path,
    method,
    description: { path, method, status, body, query, params, response, summary, tag, produces },
    mount(router) {
      router[options.method.toLowerCase() as Lowercase<Method>](path, async (req, res) => {
        const unstorable = [
          ...nulCharacterIssues(req.params, "path"),
          ...nulCharacterIssues(req.query, "query"),
          ...nulCharacterIssues(req.body, "body"),
        ];
        if (unstorable.length > 0) throw new ValidationError(unstorable);
        const issues: ValidationIssue[] = [];
        const parse = (schema: Schema | undefined, input: unknown, location: ValidationIssue["location"]): unknown => {
          if (!schema) return undefined;
          const result = schema.safeParse(input);
          if (result.success) return result.data;
          issues.push(...ValidationError.fromZod(location, result.error, input).issues);
          return undefined;
        };
        const params = parse(options.params, req.params, "path") as Output<Params>;
        const query = parse(options.query, req.query, "query") as Output<Query>;
        // No body at all reads as an empty object; a JSON `null` is a body, and the schema judges it.
        const body = parse(options.body, req.body === undefined ? {} : req.body, "body") as Output<Body>;
        if (issues.length > 0) throw new ValidationError(issues);
        if (!req.identity) throw new Error(`${path} was reached without an identity; mount it behind requireIdentity`);
        const result = await handler({ body, query, params, identity: req.identity, req, res });
        if (res.headersSent) return;
        if (result === undefined) res.status(status === 200 ? 204 : status).end();
        else {
          if (response && req.app.locals[CHECK_RESPONSES] === true) {
            const checked = response.safeParse(JSON.parse(JSON.stringify(result)));
            if (!checked.success) throw new UndeclaredResponseError(`${options.method} ${path}`, checked.error);
          }
          // Polar's dated versions: a caller on an older one gets the answer without the fields that came later.
          res.status(status).json(response ? answerIn(result, response, apiVersionOf(req.headers)) : result);
        }
      });
    },
  };
}

export function mountEndpoints(router: Router, endpoints: Endpoint[]): void {
  for (const endpoint of endpoints) endpoint.mount(router);
}
