import { z } from "zod";
import { NATS_PREFIX_PATTERN } from "@tollgate/proto";
import { parseSigningKey, parseVerifyKey } from "./http/identity.js";

/** Raised when the environment does not describe a runnable process; one line per problem. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const SECRET_NAME = /SECRET|PASSWORD|TOKEN|KEY|SEED/;

/** Replaces the password of a `scheme://user:password@host` URL with `***`, leaving the rest as written. */
export function maskUrlPassword(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, "$1:***@");
}

/** Shows what was given without leaking secrets or URL credentials into logs. */
function describeValue(name: string, value: string | undefined): string {
  if (value === undefined) return "it is not set";
  if (SECRET_NAME.test(name)) return `got a value of ${value.length} characters`;
  return `got ${JSON.stringify(maskUrlPassword(value))}`;
}

/**
 * Parses the environment with a zod object whose fields are named after the variables. Empty
 * strings count as unset, so `FOO=` falls back to the default like an absent variable.
 */
export function loadConfig<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
  env: Record<string, string | undefined> = process.env,
): z.output<z.ZodObject<Shape>> {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const result = schema.safeParse(present);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? "(environment)");
    return `${name}: expected ${issue.message}, ${describeValue(name, present[name])}`;
  });
  throw new ConfigError([...new Set(problems)].sort());
}

/** Whether `parse` takes the value without throwing. */
function parses(parse: (value: string) => unknown, value: string): boolean {
  try {
    parse(value);
    return true;
  } catch {
    return false;
  }
}

function hasProtocol(value: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol.replace(/:$/, ""));
  } catch {
    return false;
  }
}

function integerField(expected: string, min: number, max: number) {
  return z
    .string({ error: expected })
    .regex(/^\d+$/, { error: expected })
    .transform(Number)
    .pipe(z.number().min(min, { error: expected }).max(max, { error: expected }));
}

/** Field builders whose error message is the expectation, so a problem reads as one plain line. */
export const env = {
  string: (expected: string, fallback?: string) => {
    const field = z.string({ error: expected }).min(1, { error: expected });
    return fallback === undefined ? field : field.default(fallback);
  },
  integer: (expected: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) => integerField(expected, min, max).default(fallback),
  port: (fallback: number) => env.integer("a TCP port number between 0 and 65535", fallback, 0, 65535),
  url: (protocols: string[], fallback?: string) => {
    const expected = `a ${protocols.map((p) => `${p}://`).join(" or ")} URL`;
    const field = z.string({ error: expected }).refine((value) => hasProtocol(value, protocols), { error: expected });
    return fallback === undefined ? field : field.default(fallback);
  },
  enum: <const Values extends readonly [string, ...string[]]>(values: Values, fallback: Values[number]) =>
    z.enum(values, { error: `one of ${values.join(", ")}` }).default(fallback),
  /** A size such as `512kb` or `1mb` (or plain bytes), as a number of bytes. */
  bytes: (fallback: string) =>
    z
      .string({ error: "a size such as 512kb or 1mb" })
      .regex(/^\d+\s*(b|kb|mb)?$/i, { error: "a size such as 512kb or 1mb" })
      .default(fallback)
      .transform((value) => {
        const [, amount = "0", unit = "b"] = /^(\d+)\s*([a-z]*)$/i.exec(value) ?? [];
        return Number(amount) * ({ b: 1, kb: 1024, mb: 1024 * 1024 }[unit.toLowerCase() as "b" | "kb" | "mb"] ?? 1);
      }),
  boolean: (fallback: boolean) =>
    z
      .enum(["true", "false", "1", "0"], { error: "true or false" })
      .transform((value) => value === "true" || value === "1")
      .default(fallback),
  /** A comma-separated list; blanks around items are ignored; every item must pass `isItem`. */
  list: (expected: string, isItem: (item: string) => boolean = () => true) =>
    z
      .string({ error: expected })
      .transform((value) =>
        value
          .split(",")
          .map((item) => item.trim())
          .filter(Boolean),
      )
      .refine((items) => items.every(isItem), { error: expected })
      .default([]),
  /** Further trusted origins (TRUSTED_ORIGINS), checked here so a typo stops the process at start. */
  origins: () => env.list("a comma-separated list of http:// or https:// origins", (item) => hasProtocol(item, ["http", "https"])),
  /** The gateway's identity-signing key: a P-256 private key, PEM or base64 PKCS#8 DER. */
  signingKey: () => {
    const expected = "a P-256 private key (PEM, or base64 of PKCS#8 DER; `npm run secrets` makes one)";
    return z.string({ error: expected }).refine((value) => parses(parseSigningKey, value), { error: expected });
  },
  /** Public keys that identity tokens may be signed for, comma-separated (a second one while rotating). */
  verifyKeys: () => {
    const expected = "one or more P-256 public keys (base64 of SPKI DER), comma-separated";
    return z
      .string({ error: expected })
      .transform((value) => value.split(",").map((item) => item.trim()).filter(Boolean))
      .refine((keys) => keys.length > 0 && keys.every((key) => parses(parseVerifyKey, key)), { error: expected });
  },
  secret: (minLength: number) =>
    z.string({ error: `a secret of at least ${minLength} characters` }).min(minLength, {
      error: `a secret of at least ${minLength} characters`,
    }),
};

/** What every Tollgate process reads; services and the gateway extend it with their own fields. */
export const commonEnv = {
  NODE_ENV: env.enum(["development", "production", "test"], "development"),
  LOG_LEVEL: env.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], "info"),
  BODY_LIMIT: env.bytes("1mb"),
  SHUTDOWN_TIMEOUT_MS: env.integer("a number of milliseconds", 25_000),
  /** May carry credentials (`nats://user:password@host:4222`, or a token as the user). */
  NATS_URL: env.url(["nats", "tls"], "nats://127.0.0.1:4222"),
  /** A NATS credentials file (user JWT and NKey seed), as NATS's decentralized auth hands out. */
  NATS_CREDS_FILE: env.string("a path to a .creds file").optional(),
  /** An NKey seed (`SU…`) for a server that authenticates users by NKey. */
  NATS_NKEY_SEED: env.secret(8).optional(),
  /**
   * This process's own password on a NATS server with a user per process, each user named for its
   * process (auth, organization, billing, webhook-dispatcher, gateway); used instead of NATS_URL's credentials.
   */
  NATS_PASSWORD: env.secret(8).optional(),
  /** Serves Prometheus's /metrics on a port of its own, never the API's (0: any free one); unset, no metrics are served. */
  METRICS_PORT: integerField("a TCP port number between 0 and 65535", 0, 65535).optional(),
  METRICS_HOST: env.string("a host name or address to listen on", "127.0.0.1"),
  /** Copies of the event stream a NATS cluster keeps (3 survives losing a server); 1 for a single server. */
  NATS_STREAM_REPLICAS: env.integer("a number of stream replicas between 1 and 5", 1, 1, 5),
  NATS_PREFIX: z
    .string()
    .regex(NATS_PREFIX_PATTERN, { error: "lower-case letters, digits and underscores, starting with a letter" })
    .default("tollgate"),
  REDIS_URL: env.url(["redis", "rediss"], "redis://127.0.0.1:6379"),
  REDIS_PREFIX: env.string("a key prefix such as tollgate:", "tollgate:"),
};

/** What a service with its own Postgres schema reads on top of {@link commonEnv}. */
export const serviceEnv = {
  ...commonEnv,
  /** Services listen on loopback unless told otherwise: only the gateway is meant to reach them. */
  HOST: env.string("a host name or address to listen on", "127.0.0.1"),
  IDENTITY_VERIFY_KEYS: env.verifyKeys(),
  DATABASE_URL: env.url(["postgres", "postgresql"], "postgres://postgres@127.0.0.1:5432/tollgate"),
  DATABASE_POOL_MAX: env.integer("a pool size between 1 and 100", 10, 1, 100),
  OUTBOX_POLL_MS: env.integer("a number of milliseconds", 1_000, 10),
  /**
   * After SIGTERM, how long a service goes on serving while its /readyz answers 503, before it closes
   * its port: the time balancers (the gateway's checks, Kubernetes' endpoints) take to stop sending to it.
   */
  SHUTDOWN_DRAIN_MS: env.integer("a number of milliseconds", 0, 0, 60_000),
  /** Development and tests: every JSON answer is checked against the schema its endpoint declares (a mismatch is a 500). */
  CHECK_RESPONSES: env.boolean(false),
};
