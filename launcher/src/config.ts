import { randomBytes } from "node:crypto";
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
});

export type LauncherConfig = z.output<typeof launcherEnv> & { IDENTITY_TOKEN_SECRET: string };

export function loadLauncherConfig(environment: Record<string, string | undefined> = process.env): LauncherConfig {
  const config = loadConfig(launcherEnv, environment);
  // A local stack needs no shared secret from the user: one is made per start for its processes.
  return { ...config, IDENTITY_TOKEN_SECRET: config.IDENTITY_TOKEN_SECRET ?? randomBytes(32).toString("base64url") };
}
