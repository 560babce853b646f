import { parse } from "yaml";
import { z } from "zod";
import { read } from "./dockerfile.js";

const Compose = z.object({
  services: z.record(
    z.string(),
    z.object({
      image: z.string().optional(),
      command: z.array(z.string()).optional(),
      build: z.object({ context: z.string(), target: z.string() }).optional(),
      environment: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
      ports: z.array(z.string()).optional(),
      volumes: z.array(z.string()).optional(),
      depends_on: z.record(z.string(), z.object({ condition: z.string() })).optional(),
      healthcheck: z.object({ test: z.array(z.string()) }).optional(),
      restart: z.string().optional(),
      stop_grace_period: z.string().optional(),
      container_name: z.string().optional(),
    }),
  ),
});
/** docker-compose.yml as compose reads it, `<<:` merges applied. */
export const compose = Compose.parse(parse(read("docker-compose.yml"), { merge: true }));

/** Resolves compose's `${NAME}`, `${NAME:-default}` and `${NAME:?message}` against `variables`. */
export function interpolate(value: string | number, variables: Record<string, string>): string {
  return String(value).replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_all, name: string, kind?: string, rest?: string) => {
    const given = variables[name];
    if (given !== undefined && given !== "") return given;
    if (kind === "-") return rest ?? "";
    throw new Error(`compose needs ${name}: ${rest ?? "not set"}`);
  });
}

/** The arguments compose starts redis-server with (the program's name left out), `variables` filled in. */
export const composeRedisArguments = (variables: Record<string, string>): string[] =>
  (compose.services.redis?.command ?? []).slice(1).map((argument) => interpolate(argument, variables));

/** Redis's users as redis-server's arguments define them (`--user <name> <rules…>`), each with its rules. */
export function redisUsers(args: readonly string[]): Map<string, string[]> {
  const users = new Map<string, string[]>();
  let rules: string[] | null = null;
  for (let index = 0; index < args.length; index++) {
    const argument = args[index] ?? "";
    if (argument === "--user") {
      rules = [];
      users.set(args[++index] ?? "", rules);
    } else if (argument.startsWith("--")) rules = null;
    else rules?.push(argument);
  }
  return users;
}

/** Whether a user's key patterns (`~glob`) let it touch `key`. */
export const mayTouch = (rules: readonly string[], key: string): boolean =>
  rules.filter((rule) => rule.startsWith("~")).some((rule) => new RegExp(`^${rule.slice(1).replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`).test(key));
