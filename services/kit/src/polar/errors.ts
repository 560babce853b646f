import type { z } from "zod";
import { HttpError, polarErrors, ValidationError } from "../http/errors.js";

/** Polar's 404, for a resource that does not exist or that the caller may not see. */
export const notFound = (what: string) => new HttpError(404, polarErrors.codes.not_found, `${what} not found`);

/** Polar's 403 for an action the resource's state forbids. */
export const notPermitted = (detail: string) => new HttpError(403, polarErrors.codes.forbidden, detail);

/** A 422 about one field of the body, in FastAPI's shape (`value_error`, as Polar's own checks give). */
export const invalidField = (path: (string | number)[], message: string, input?: unknown) =>
  new ValidationError([{ location: "body", path, message, code: "value_error", input }]);

/** Postgres' unique violation: another row already has the value. */
export const isUniqueViolation = (error: unknown) => typeof error === "object" && error !== null && "code" in error && error.code === "23505";

/** Postgres' foreign key violation (of a constraint whose name starts with `constraint`, when given): the row referred to is gone, or is still referred to. */
export const isForeignKeyViolation = (error: unknown, constraint = "") =>
  typeof error === "object" && error !== null && "code" in error && error.code === "23503" && (!constraint || ("constraint" in error && typeof error.constraint === "string" && error.constraint.startsWith(constraint)));

/** Parses part of a body that could only be checked once something else was known (a stored type), reported where it sits. */
export function parseNested<Schema extends z.ZodType>(schema: Schema, at: (string | number)[], input: unknown): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const { issues } = ValidationError.fromZod("body", parsed.error, input);
  throw new ValidationError(issues.map((issue) => ({ ...issue, path: [...at, ...issue.path] })));
}
