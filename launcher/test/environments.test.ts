import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateIdentityKeys } from "@tollgate/kit";
import { loadLauncherConfig } from "../src/config.js";
import { environmentFor, GATEWAY, launcherValues, SERVICES, unreadSettings } from "../src/environments.js";

const keys = generateIdentityKeys();
/** An operator's shell: every secret given (so no .tollgate/secrets.json is read), a provider on endpoints of its own, and what any shell holds. */
const shell: Record<string, string> = {
  PATH: "/usr/local/bin:/usr/bin",
  HOME: "/home/operator",
  LANG: "en_GB.UTF-8",
  NODE_OPTIONS: "--max-old-space-size=512",
  AUTH_SECRET: randomBytes(32).toString("base64url"),
  IDENTITY_SIGNING_KEY: keys.signingKey,
  FILE_URL_SECRET: randomBytes(32).toString("base64url"),
  WEBHOOK_SECRET_KEYS: `k1:${randomBytes(32).toString("base64")}`,
  GITHUB_CLIENT_ID: "github-client",
  GITHUB_CLIENT_SECRET: "github-secret",
  GITHUB_AUTHORIZATION_URL: "http://127.0.0.1:45001/authorize",
  GITHUB_TOKEN_URL: "http://127.0.0.1:45001/token",
  GITHUB_USERINFO_URL: "http://127.0.0.1:45001/github/user",
  GOOGLE_TOKEN_URL: "http://127.0.0.1:45001/token",
  TOKEN_ENCRYPTION_KEYS: `t1:${randomBytes(32).toString("base64")}`,
  SMTP_URL: "smtp://mailer:password@127.0.0.1:45025",
  S3_SECRET_ACCESS_KEY: "s".repeat(40),
  AWS_PROFILE: "tollgate",
  SESSION_COOKIE_CACHE: "true",
  // Other tools' secrets, which no Tollgate process has any use for.
  GITHUB_TOKEN: "ghp_operators_own_token",
  OPENAI_API_KEY: "sk-operators-own-key",
};
const values = launcherValues(loadLauncherConfig(shell), shell);
const service = (name: string) => {
  const found = SERVICES.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no service ${name}`);
  return found;
};
/** Each process's environment as `npm start` builds it. */
const started: Record<string, Record<string, string>> = {
  ...Object.fromEntries(SERVICES.map((each) => [each.name, environmentFor(each.serve, values, each.libraryVariables)])),
  gateway: environmentFor(GATEWAY.serve, values),
};
const holders = (name: string) => Object.keys(started).filter((process) => name in (started[process] ?? {}));

describe("the settings npm start hands each process", () => {
  it("are those its config schema declares, whatever their names look like: a provider's token endpoint reaches auth", () => {
    for (const name of ["GITHUB_TOKEN_URL", "GOOGLE_TOKEN_URL", "GITHUB_AUTHORIZATION_URL", "GITHUB_USERINFO_URL", "GITHUB_CLIENT_ID", "TOKEN_ENCRYPTION_KEYS", "SMTP_URL"]) {
      expect(started.auth?.[name], name).toBe(shell[name]);
    }
    // Read by both the auth service and the gateway.
    expect(holders("SESSION_COOKIE_CACHE")).toEqual(["auth", "gateway"]);
  });

  it("give each secret to exactly the processes that declare it", () => {
    expect(holders("AUTH_SECRET")).toEqual(["auth", "gateway"]);
    expect(holders("IDENTITY_SIGNING_KEY")).toEqual(["gateway"]);
    expect(holders("FILE_URL_SECRET")).toEqual(["billing"]);
    expect(holders("WEBHOOK_SECRET_KEYS")).toEqual(["webhook-dispatcher"]);
    expect(holders("GITHUB_CLIENT_SECRET")).toEqual(["auth"]);
    expect(holders("TOKEN_ENCRYPTION_KEYS")).toEqual(["auth"]);
    expect(holders("SMTP_URL")).toEqual(["auth"]);
    expect(holders("S3_SECRET_ACCESS_KEY")).toEqual(["billing"]);
    expect(holders("AWS_PROFILE")).toEqual(["billing"]);
    expect(holders("DATABASE_URL")).toEqual(["auth", "organization", "billing", "webhook-dispatcher"]);
    // Nobody's: the operator's own tokens for other tools.
    expect(holders("GITHUB_TOKEN")).toEqual([]);
    expect(holders("OPENAI_API_KEY")).toEqual([]);
  });

  it("give every process the runtime's own variables", () => {
    for (const environment of Object.values(started)) expect(environment).toMatchObject({ PATH: shell.PATH, HOME: shell.HOME, LANG: shell.LANG, NODE_OPTIONS: shell.NODE_OPTIONS });
  });

  it("give a migration the database and nothing secret", () => {
    const migration = environmentFor(service("auth").migrate, values);
    expect(Object.keys(migration).sort()).toEqual(["DATABASE_URL", "HOME", "LANG", "LOG_LEVEL", "NODE_OPTIONS", "PATH"]);
  });
});

describe("a variable no process reads", () => {
  it("is named when it is a typo of a setting, or a retired one", () => {
    const typos = { GITHUB_TOKEN_ULR: "x", AUTH_SECERT: "x", s3_bucket: "x", GOOGLE_USER_INFO_URL: "x", NATS_PREFX: "x", IDENTITY_TOKEN_SECRET: "x" };
    expect(unreadSettings({ ...shell, ...typos })).toEqual([
      { name: "AUTH_SECERT", nearest: "AUTH_SECRET" },
      { name: "GITHUB_TOKEN_ULR", nearest: "GITHUB_TOKEN_URL" },
      { name: "GOOGLE_USER_INFO_URL", nearest: "GOOGLE_USERINFO_URL" },
      { name: "IDENTITY_TOKEN_SECRET", nearest: null },
      { name: "NATS_PREFX", nearest: "NATS_PREFIX" },
      { name: "s3_bucket", nearest: "S3_BUCKET" },
    ]);
  });

  it("passes unremarked when it belongs to the shell, the desktop or a CI runner, even sharing a prefix with ours", () => {
    const ordinary = [
      ...["SHELL", "PWD", "OLDPWD", "TERM", "SHLVL", "USER", "HOSTNAME", "EDITOR", "DISPLAY", "MAIL", "SSH_AUTH_SOCK", "SESSION_MANAGER", "XDG_SESSION_TYPE", "DBUS_SESSION_BUS_ADDRESS"],
      ...["CI", "GITHUB_ACTIONS", "GITHUB_API_URL", "GITHUB_SERVER_URL", "GITHUB_GRAPHQL_URL", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_REF", "GITHUB_SHA", "GITHUB_RETENTION_DAYS", "RUNNER_TEMP", "ACTIONS_RUNTIME_TOKEN"],
      ...["GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_CLOUD_PROJECT", "NPM_TOKEN", "npm_config_cache", "PGPASSWORD", "DOCKER_HOST", "KUBECONFIG", "JAVA_HOME", "DEBUG"],
    ];
    expect(unreadSettings({ ...shell, ...Object.fromEntries(ordinary.map((name) => [name, "x"])) })).toEqual([]);
  });
});
