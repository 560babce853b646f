import { pino, type DestinationStream, type Logger } from "pino";

export type { Logger } from "pino";

/** Keys whose values never reach a log line, wherever they sit in a logged object. */
const SECRET_KEYS = [
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "accessToken",
  "refreshToken",
  "idToken",
  "access_token",
  "refresh_token",
  "id_token",
  "secret",
  "clientSecret",
  "client_secret",
  "authorization",
  "cookie",
];

const REDACT_PATHS = [
  'req.headers["cookie"]',
  'req.headers["authorization"]',
  'req.headers["x-tollgate-identity"]',
  'res.headers["set-cookie"]',
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`, `*.*.*.${key}`]),
];

export function createLogger(
  options: { service: string; level: string },
  destination?: DestinationStream,
): Logger {
  return pino(
    {
      level: options.level,
      base: { service: options.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    },
    destination,
  );
}
