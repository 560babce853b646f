import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { commonEnv, ConfigError, derivedVaultKey, env, generateIdentityKeys, loadConfig, verifyKeyOf } from "@tollgate/kit";
import { BUS_PROCESSES } from "@tollgate/proto";
import { z } from "zod";
import { natsPasswordVariable } from "./nats-authorization.js";

const launcherEnv = z.object({
  PORT: env.port(3000),
  DATABASE_URL: env.url(["postgres", "postgresql"], "postgres://postgres@127.0.0.1:5432/tollgate"),
  NATS_URL: commonEnv.NATS_URL,
  NATS_CREDS_FILE: commonEnv.NATS_CREDS_FILE,
  NATS_NKEY_SEED: commonEnv.NATS_NKEY_SEED,
  REDIS_URL: commonEnv.REDIS_URL,
  LOG_LEVEL: commonEnv.LOG_LEVEL,
  /** `pretty` prints readable prefixed lines; `json` passes each process's JSON lines through. */
  LOG_FORMAT: z.enum(["pretty", "json"], { error: "pretty or json" }).default("pretty"),
  AUTH_SECRET: env.secret(32).optional(),
  IDENTITY_SIGNING_KEY: env.signingKey().optional(),
  /** Public keys services accept (the signing key's own, plus an old one while rotating); the signing key's when unset. */
  IDENTITY_VERIFY_KEYS: env.verifyKeys().optional(),
  FILE_URL_SECRET: env.secret(32).optional(),
  WEBHOOK_SECRET_KEYS: z.string().optional(),
  /** Where users reach Tollgate; http://localhost:PORT when unset. */
  PUBLIC_URL: env.url(["http", "https"]).optional(),
  /** Processes of each service (`--replicas` on the command line); the gateway balances requests over them. */
  REPLICAS: env.integer("a number of replicas (--replicas) between 1 and 16", 1, 1, 16),
});

/** The settings the launcher reads for itself (some of which it hands on: environments.ts). */
export const LAUNCHER_SETTINGS = Object.keys(launcherEnv.shape);

/** The secrets a stack runs with, each given only to the processes whose config schema declares it (environments.ts). */
export interface Secrets {
  /** Session cookies and mailed tokens: the auth service and the gateway. */
  AUTH_SECRET: string;
  /** Signs forwarded identities: the gateway alone. */
  IDENTITY_SIGNING_KEY: string;
  /** Checks them: every service (public keys, no secret). */
  IDENTITY_VERIFY_KEYS: string;
  /** Signs file URLs: billing alone. */
  FILE_URL_SECRET: string;
  /** Seals webhook signing secrets at rest: the webhook dispatcher alone. */
  WEBHOOK_SECRET_KEYS: string;
}

export type LauncherConfig = Omit<z.output<typeof launcherEnv>, keyof Secrets> & Secrets;

/** Where a local stack keeps the secrets it made, so sessions survive a restart. Not committed. */
export const DEV_SECRETS_FILE = fileURLToPath(new URL("../../.tollgate/secrets.json", import.meta.url));

const StoredSecrets = z.record(z.string(), z.string());

/** A complete set of new secrets, as `npm run secrets` prints them and a first `npm start` keeps them. */
export function freshSecrets(): Omit<Secrets, "IDENTITY_VERIFY_KEYS"> {
  return {
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    IDENTITY_SIGNING_KEY: generateIdentityKeys().signingKey,
    FILE_URL_SECRET: randomBytes(32).toString("base64url"),
    WEBHOOK_SECRET_KEYS: `k1:${randomBytes(32).toString("base64")}`,
  };
}

/**
 * Every secret a deployment (docker compose, Kubernetes) is given, made anew: those `npm start` makes
 * for itself, the public half of the signing key, each process's password on NATS
 * (`<PROCESS>_NATS_PASSWORD`, its user being the process's name), and those of Redis's two users, the
 * gateway and billing (a local Redis asks for none).
 */
export function deploymentSecrets(): Secrets & Record<string, string> & { REDIS_GATEWAY_PASSWORD: string; REDIS_BILLING_PASSWORD: string } {
  const secrets = freshSecrets();
  // NATS reads a password in its configuration as text only when it starts with a letter.
  const natsPasswords = Object.fromEntries(BUS_PROCESSES.map((process) => [natsPasswordVariable(process), `n${randomBytes(24).toString("hex")}`] as const));
  return {
    ...secrets,
    IDENTITY_VERIFY_KEYS: verifyKeyOf(secrets.IDENTITY_SIGNING_KEY),
    ...natsPasswords,
    // Hex: they go into redis:// URLs as they are.
    REDIS_GATEWAY_PASSWORD: randomBytes(24).toString("hex"),
    REDIS_BILLING_PASSWORD: randomBytes(24).toString("hex"),
  };
}

/**
 * A local stack needs no secrets from the user: what is missing is made on the first start and kept
 * in .tollgate/secrets.json. A file from a release that signed identities with one shared
 * IDENTITY_TOKEN_SECRET gets the new secrets beside it, and the webhook key that secret used to derive
 * stays usable, so endpoints' signing secrets sealed with it still open.
 */
function devSecrets(): Omit<Secrets, "IDENTITY_VERIFY_KEYS"> {
  let stored: Record<string, string> = {};
  try {
    stored = StoredSecrets.parse(JSON.parse(readFileSync(DEV_SECRETS_FILE, "utf8")));
  } catch {
    // No file yet (or an unreadable one): everything is made anew.
  }
  const made = freshSecrets();
  const legacy = stored.IDENTITY_TOKEN_SECRET;
  if (legacy && !stored.WEBHOOK_SECRET_KEYS) {
    made.WEBHOOK_SECRET_KEYS = `${made.WEBHOOK_SECRET_KEYS},identity-secret:${derivedVaultKey(legacy, "webhook-secrets").toString("base64")}`;
  }
  const secrets = { ...made, ...stored };
  if (Object.keys(made).some((name) => !(name in stored))) {
    mkdirSync(path.dirname(DEV_SECRETS_FILE), { recursive: true });
    writeFileSync(DEV_SECRETS_FILE, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  }
  return { AUTH_SECRET: secrets.AUTH_SECRET, IDENTITY_SIGNING_KEY: secrets.IDENTITY_SIGNING_KEY, FILE_URL_SECRET: secrets.FILE_URL_SECRET, WEBHOOK_SECRET_KEYS: secrets.WEBHOOK_SECRET_KEYS };
}

export function loadLauncherConfig(environment: Record<string, string | undefined> = process.env): LauncherConfig {
  const config = loadConfig(launcherEnv, environment);
  const given = { AUTH_SECRET: config.AUTH_SECRET, IDENTITY_SIGNING_KEY: config.IDENTITY_SIGNING_KEY, FILE_URL_SECRET: config.FILE_URL_SECRET, WEBHOOK_SECRET_KEYS: config.WEBHOOK_SECRET_KEYS };
  const complete = Object.values(given).every((value) => value !== undefined);
  const secrets = complete ? (given as Omit<Secrets, "IDENTITY_VERIFY_KEYS">) : { ...devSecrets(), ...definedOnly(given) };
  const ownKey = verifyKeyOf(secrets.IDENTITY_SIGNING_KEY);
  // Services that cannot check the gateway's signature refuse every request: better to stop here, saying why.
  if (config.IDENTITY_VERIFY_KEYS && !config.IDENTITY_VERIFY_KEYS.includes(ownKey)) {
    throw new ConfigError(["IDENTITY_VERIFY_KEYS: expected to include the public half of IDENTITY_SIGNING_KEY (unset it to use that alone)"]);
  }
  return { ...config, ...secrets, IDENTITY_VERIFY_KEYS: config.IDENTITY_VERIFY_KEYS?.join(",") ?? ownKey };
}

const definedOnly = <T extends object>(values: T) => Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
