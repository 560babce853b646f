import { z } from "zod";

/** An error the caller caused or may see; rendered in the serving contract's shape. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    /** A code from the contract's own vocabulary (better-auth's UPPER_SNAKE, Polar's PascalCase). */
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Fields the contract's answer carries beside the code and message (Polar's 409 lists the customers to choose from). */
    readonly fields: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export interface ValidationIssue {
  location: "body" | "query" | "path";
  path: PropertyKey[];
  message: string;
  /** Machine-readable kind, e.g. `missing`, `invalid_type`, `too_small`, `json_invalid`. */
  code: string;
  /** The value that failed, as FastAPI reports it (Polar's 422 items carry it). */
  input?: unknown;
}

/** Raised for a request body that cannot be used at all; see {@link ErrorContract.malformedBody}. */
export class MalformedBodyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MalformedBodyError";
  }
}

/** Input that failed its schema; every problem is reported, not just the first. */
export class ValidationError extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((issue) => issue.message).join("; "));
    this.name = "ValidationError";
  }

  /** `input` is what was parsed; a field absent from it is reported as `missing`, as Polar does. */
  static fromZod(location: ValidationIssue["location"], error: z.ZodError, input: unknown): ValidationError {
    return new ValidationError(
      error.issues.map((issue) => {
        const value = valueAt(input, issue.path);
        return {
          location,
          path: issue.path,
          message: issue.message,
          code: issueType(issue, value),
          input: value,
        };
      }),
    );
  }
}

/**
 * The FastAPI type of a failed check: `missing` for an absent field, the one a custom check names
 * (`params.type`, such as `datetime_parsing`), else zod's own code.
 */
function issueType(issue: z.core.$ZodIssue, value: unknown): string {
  if (issue.code === "invalid_type" && value === undefined) return "missing";
  if (issue.code === "custom" && typeof issue.params?.type === "string") return issue.params.type;
  return issue.code;
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** Inputs larger than this (in values, or levels deep) are not echoed back in a validation error. */
const ECHO_LIMIT = { values: 100, depth: 8 };

/**
 * Whether a failing input is small enough to show back, as FastAPI does: a deep or large structure is
 * left out, so an error answer never costs more to render than the request did to send.
 */
function echoable(input: unknown): boolean {
  if (input === undefined) return false;
  const pending: { value: unknown; depth: number }[] = [{ value: input, depth: 0 }];
  let values = 0;
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (++values > ECHO_LIMIT.values || next.depth > ECHO_LIMIT.depth) return false;
    if (typeof next.value === "object" && next.value !== null) {
      for (const child of Object.values(next.value) as unknown[]) pending.push({ value: child, depth: next.depth + 1 });
    }
  }
  return true;
}

/** Errors the runtime itself raises, before or around a handler. */
export type GenericError =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "payload_too_large"
  | "too_many_requests"
  | "internal"
  | "unavailable";

/** How one public API shapes its errors, so every failure a client sees matches that API. */
export interface ErrorContract {
  validation(issues: ValidationIssue[]): { status: number; body: unknown };
  /** A body that cannot even be read: not JSON, or JSON trying to reach object prototypes. */
  malformedBody(message: string): { status: number; body: unknown };
  body(code: string, message: string): Record<string, unknown>;
  codes: Record<GenericError, string>;
  /** The error bodies as the API's description shows them. */
  documented: { error: z.ZodType; validation: { status: number; schema: z.ZodType } };
}

/** better-auth (better-call): `{code, message}`; validation failures are 400 VALIDATION_ERROR. */
export const betterAuthErrors: ErrorContract = {
  validation: (issues) => ({
    status: 400,
    body: {
      code: "VALIDATION_ERROR",
      message: issues
        .map((issue) => `[${[issue.location, ...issue.path.map(String)].join(".")}] ${issue.message}`)
        .join("; "),
    },
  }),
  malformedBody: (message) => ({ status: 400, body: { code: "BAD_REQUEST", message } }),
  body: (code, message) => ({ code, message }),
  codes: {
    bad_request: "BAD_REQUEST",
    not_found: "NOT_FOUND",
    unauthorized: "UNAUTHORIZED",
    forbidden: "FORBIDDEN",
    too_many_requests: "TOO_MANY_REQUESTS",
    payload_too_large: "PAYLOAD_TOO_LARGE",
    internal: "INTERNAL_SERVER_ERROR",
    unavailable: "SERVICE_UNAVAILABLE",
  },
  documented: (() => {
    const error = z.object({ code: z.string(), message: z.string() }).meta({ id: "BetterAuthError" });
    return { error, validation: { status: 400, schema: error } };
  })(),
};

/** Polar (FastAPI): `{error, detail}`; validation failures are 422 `{detail: [{loc, msg, type}]}`. */
export const polarErrors: ErrorContract = {
  validation: (issues) => ({
    status: 422,
    body: {
      detail: issues.map((issue) => ({
        loc: [issue.location, ...issue.path.map((key) => (typeof key === "number" ? key : String(key)))],
        msg: issue.message,
        type: issue.code,
        ...(echoable(issue.input) && { input: issue.input }),
      })),
    },
  }),
  malformedBody: (message) => ({ status: 422, body: { detail: [{ loc: ["body"], msg: message, type: "json_invalid" }] } }),
  body: (code, message) => ({ error: code, detail: message }),
  codes: {
    bad_request: "BadRequest",
    not_found: "ResourceNotFound",
    unauthorized: "Unauthorized",
    forbidden: "NotPermitted",
    too_many_requests: "TooManyRequests",
    payload_too_large: "PayloadTooLarge",
    internal: "InternalServerError",
    unavailable: "ServiceUnavailable",
  },
  documented: {
    error: z.object({ error: z.string(), detail: z.string() }).meta({ id: "PolarError" }),
    validation: {
      status: 422,
      schema: z
        .object({
          detail: z.array(z.object({ loc: z.array(z.union([z.string(), z.int()])), msg: z.string(), type: z.string(), input: z.unknown().optional() }).meta({ id: "ValidationError" })),
        })
        .meta({ id: "HTTPValidationError" }),
    },
  },
};
