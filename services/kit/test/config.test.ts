import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigError, env, generateIdentityKeys, loadConfig, serviceEnv } from "@tollgate/kit";
import { spawnTypeScript } from "@tollgate/kit/testing";

const schema = z.object(serviceEnv);
const { verifyKey, signingKey } = generateIdentityKeys();

function problemsOf(environment: Record<string, string>, of: z.ZodObject = schema): string[] {
  try {
    loadConfig(of, environment);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("configuration was accepted");
}

describe("configuration", () => {
  it("fills defaults that point at the local services", () => {
    const config = loadConfig(schema, { IDENTITY_VERIFY_KEYS: verifyKey });
    expect(config).toMatchObject({
      HOST: "127.0.0.1",
      IDENTITY_VERIFY_KEYS: [verifyKey],
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/tollgate",
      NATS_URL: "nats://127.0.0.1:4222",
      REDIS_URL: "redis://127.0.0.1:6379",
      NATS_PREFIX: "tollgate",
      LOG_LEVEL: "info",
      SHUTDOWN_TIMEOUT_MS: 25_000,
    });
  });

  it("treats an empty variable as unset", () => {
    const config = loadConfig(schema, { IDENTITY_VERIFY_KEYS: verifyKey, LOG_LEVEL: "" });
    expect(config.LOG_LEVEL).toBe("info");
  });

  it("reports every problem on its own line, naming the variable and what it expects", () => {
    const problems = problemsOf({
      DATABASE_URL: "mysql://root@localhost/db",
      LOG_LEVEL: "loud",
      SHUTDOWN_TIMEOUT_MS: "soon",
      NATS_PREFIX: "Has Spaces",
    });
    expect(problems).toEqual([
      'DATABASE_URL: expected a postgres:// or postgresql:// URL, got "mysql://root@localhost/db"',
      "IDENTITY_VERIFY_KEYS: expected one or more P-256 public keys (base64 of SPKI DER), comma-separated, it is not set",
      'LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent, got "loud"',
      'NATS_PREFIX: expected lower-case letters, digits and underscores, starting with a letter, got "Has Spaces"',
      'SHUTDOWN_TIMEOUT_MS: expected a number of milliseconds, got "soon"',
    ]);
  });

  it("never repeats a secret or a URL password in its message", () => {
    const secrets = z.object({ ...serviceEnv, AUTH_SECRET: env.secret(32), SIGNING_KEY: env.signingKey() });
    const problems = problemsOf({ AUTH_SECRET: "short-secret", SIGNING_KEY: `${signingKey.slice(0, 40)}x`, REDIS_URL: "http://user:hunter2@cache:6379" }, secrets);
    expect(problems.join("\n")).not.toMatch(/short-secret|hunter2/);
    expect(problems.join("\n")).not.toContain(signingKey.slice(0, 40));
    expect(problems).toContain("AUTH_SECRET: expected a secret of at least 32 characters, got a value of 12 characters");
    expect(problems).toContain('REDIS_URL: expected a redis:// or rediss:// URL, got "http://user:***@cache:6379"');
  });

  it("reads sizes as bytes", () => {
    const sizes = z.object({ BODY_LIMIT: env.bytes("1mb") });
    expect(loadConfig(sizes, {}).BODY_LIMIT).toBe(1_048_576);
    expect(loadConfig(sizes, { BODY_LIMIT: "512kb" }).BODY_LIMIT).toBe(524_288);
    expect(loadConfig(sizes, { BODY_LIMIT: "2048" }).BODY_LIMIT).toBe(2048);
    expect(() => loadConfig(sizes, { BODY_LIMIT: "lots" })).toThrow(/BODY_LIMIT: expected a size such as 512kb or 1mb, got "lots"/);
  });

  it("checks every item of a list, and origins are http or https URLs", () => {
    const lists = z.object({ TRUSTED_ORIGINS: env.origins(), IDS: env.list("a comma-separated list of numbers", (item) => /^\d+$/.test(item)) });
    expect(loadConfig(lists, {})).toEqual({ TRUSTED_ORIGINS: [], IDS: [] });
    expect(loadConfig(lists, { TRUSTED_ORIGINS: " https://a.example , http://b.example:8080 ", IDS: "1,2" })).toEqual({
      TRUSTED_ORIGINS: ["https://a.example", "http://b.example:8080"],
      IDS: ["1", "2"],
    });
    expect(() => loadConfig(lists, { TRUSTED_ORIGINS: "https://a.example,b.example" })).toThrow(
      /TRUSTED_ORIGINS: expected a comma-separated list of http:\/\/ or https:\/\/ origins, got "https:\/\/a.example,b.example"/,
    );
    expect(() => loadConfig(lists, { IDS: "1,two" })).toThrow(/IDS: expected a comma-separated list of numbers/);
  });

  it("bounds integers", () => {
    const ports = z.object({ PORT: env.port(3000) });
    expect(loadConfig(ports, {}).PORT).toBe(3000);
    expect(loadConfig(ports, { PORT: "8080" }).PORT).toBe(8080);
    expect(() => loadConfig(ports, { PORT: "70000" })).toThrow(/PORT: expected a TCP port number between 0 and 65535, got "70000"/);
  });

  it("stops a service at start with one line per problem and no stack trace", async () => {
    const main = fileURLToPath(new URL("../../billing/src/main.ts", import.meta.url));
    const service = spawnTypeScript(main, {
      env: { DATABASE_URL: "not a url", PORT: "http", IDENTITY_VERIFY_KEYS: "" },
    });
    const { code } = await service.exited;
    const { stderr } = service.output();
    expect(code).toBe(78);
    expect(stderr.trim().split("\n")).toEqual([
      "billing: cannot start, the configuration is invalid:",
      '  DATABASE_URL: expected a postgres:// or postgresql:// URL, got "not a url"',
      "  FILE_URL_SECRET: expected a secret of at least 32 characters, it is not set",
      "  IDENTITY_VERIFY_KEYS: expected one or more P-256 public keys (base64 of SPKI DER), comma-separated, it is not set",
      '  PORT: expected a TCP port number between 0 and 65535, got "http"',
    ]);
  });
});
