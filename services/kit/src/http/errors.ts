import type { z } from "zod";

/** An error the caller caused or may see; rendered in the serving contract's shape. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    /** A code from the contract's own vocabulary (better-auth's UPPER_SNAKE, Polar's PascalCase). */
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
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
          code: issue.code === "invalid_type" && value === undefined ? "missing" : issue.code,
          input: value,
        };
      }),
    );
  }
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
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
  body(code: string, message: string): unknown;
  codes: Record<GenericError, string>;
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
        ...(issue.input !== undefined && { input: issue.input }),
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
};
