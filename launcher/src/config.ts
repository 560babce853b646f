import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { commonEnv, env, loadConfig } from "@tollgate/kit";
import { z } from "zod";

const launcherEnv = z.object({
  PORT: env.port(3000),
  DATABASE_URL: env.url(["postgres", "postgresql"], "postgres://postgres@127.0.0.1:5432/tollgate"),
  NATS_URL: commonEnv.NATS_URL,
  REDIS_URL: commonEnv.REDIS_URL,
  LOG_LEVEL: commonEnv.LOG_LEVEL,
  /** `pretty` prints readable prefixed lines; `json` passes each process's JSON lines through. */
  LOG_FORMAT: z.enum(["pretty", "json"], { error: "pretty or json" }).default("pretty"),
  IDENTITY_TOKEN_SECRET: env.secret(32).optional(),
  AUTH_SECRET: env.secret(32).optional(),
  /** Where users reach Tollgate; http://localhost:PORT when unset. */
  PUBLIC_URL: env.url(["http", "https"]).optional(),
});

const Secrets = z.object({ IDENTITY_TOKEN_SECRET: z.string().min(32), AUTH_SECRET: z.string().min(32) });
type Secrets = z.infer<typeof Secrets>;

export type LauncherConfig = z.output<typeof launcherEnv> & Secrets;

/** Where a local stack keeps the secrets it made, so sessions survive a restart. Not committed. */
export const DEV_SECRETS_FILE = fileURLToPath(new URL("../../.tollgate/secrets.json", import.meta.url));

/**
 * A local stack needs no secrets from the user: they are made on the first start and kept in
 * .tollgate/secrets.json. Variables set in the environment win.
 */
function devSecrets(): Secrets {
  try {
    return Secrets.parse(JSON.parse(readFileSync(DEV_SECRETS_FILE, "utf8")));
  } catch {
    const made = { IDENTITY_TOKEN_SECRET: randomBytes(32).toString("base64url"), AUTH_SECRET: randomBytes(32).toString("base64url") };
    mkdirSync(path.dirname(DEV_SECRETS_FILE), { recursive: true });
    writeFileSync(DEV_SECRETS_FILE, `${JSON.stringify(made, null, 2)}\n`, { mode: 0o600 });
    return made;
  }
}

export function loadLauncherConfig(environment: Record<string, string | undefined> = process.env): LauncherConfig {
  const { IDENTITY_TOKEN_SECRET, AUTH_SECRET, ...config } = loadConfig(launcherEnv, environment);
  const stored = IDENTITY_TOKEN_SECRET && AUTH_SECRET ? { IDENTITY_TOKEN_SECRET, AUTH_SECRET } : devSecrets();
  return {
    ...config,
    IDENTITY_TOKEN_SECRET: IDENTITY_TOKEN_SECRET ?? stored.IDENTITY_TOKEN_SECRET,
    AUTH_SECRET: AUTH_SECRET ?? stored.AUTH_SECRET,
  };
}
