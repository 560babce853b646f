import { serviceSettingNames } from "@tollgate/kit";
import { authEnv } from "@tollgate/auth/config";
import { organizationEnv } from "@tollgate/organization/config";
import { billingEnv } from "@tollgate/billing/config";
import { dispatcherEnv } from "@tollgate/webhook-dispatcher/config";
import { gatewayEnv } from "@tollgate/gateway/config";
import { LAUNCHER_SETTINGS, type LauncherConfig } from "./config.js";

/** A process the launcher starts, and the settings it reads: the names its config schemas declare, the same ones `loadConfig` parses. */
interface ProcessSettings {
  name: string;
  /** Package export of its entry point. */
  entry: string;
  /** What it reads when it serves. */
  serve: readonly string[];
  /** Variables a library it uses reads for itself, outside the config schema. */
  libraryVariables?: RegExp;
}

export interface ServiceProcess extends ProcessSettings {
  /** The gateway's variable that points at it. */
  urlVariable: string;
  /** What its `migrate` command reads: the database alone, no secret. */
  migrate: readonly string[];
}

export const SERVICES: readonly ServiceProcess[] = [
  { name: "auth", entry: "@tollgate/auth/main", urlVariable: "AUTH_URL", ...serviceSettingNames(authEnv) },
  { name: "organization", entry: "@tollgate/organization/main", urlVariable: "ORGANIZATION_URL", ...serviceSettingNames(organizationEnv) },
  // With S3_ACCESS_KEY_ID unset, the S3 client takes its credentials the AWS SDK's own way (AWS_PROFILE, AWS_REGION, …).
  { name: "billing", entry: "@tollgate/billing/main", urlVariable: "BILLING_URL", ...serviceSettingNames(billingEnv), libraryVariables: /^AWS_[A-Z0-9_]+$/ },
  { name: "webhook-dispatcher", entry: "@tollgate/webhook-dispatcher/main", urlVariable: "WEBHOOKS_URL", ...serviceSettingNames(dispatcherEnv) },
];

export const GATEWAY: ProcessSettings = { name: "gateway", entry: "@tollgate/gateway/main", serve: Object.keys(gatewayEnv.shape) };

/**
 * What Node, libuv, OpenSSL and the C library read (the search path, home, locale, time zone,
 * proxies, CA certificates, NODE_OPTIONS): not Tollgate's settings, and every process runs on them.
 */
const RUNTIME_VARIABLE = /^(PATH|HOME|USER|LOGNAME|TMPDIR|TZ|LANG|LANGUAGE|LC_[A-Z]+|NODE_[A-Z0-9_]+|UV_THREADPOOL_SIZE|SSL_CERT_(FILE|DIR)|(HTTP|HTTPS|NO)_PROXY|(http|https|no)_proxy)$/;

/** Settings of earlier releases that nothing reads any more, so whoever still sets one hears of it. */
const RETIRED_SETTINGS = ["IDENTITY_TOKEN_SECRET"];

/**
 * The settings the launcher decides itself, over the environment it was started with: where
 * Postgres, NATS and Redis are, the log level, the public address, and the secrets it holds.
 */
export function launcherValues(config: LauncherConfig, environment: Record<string, string | undefined>): Record<string, string | undefined> {
  return {
    ...environment,
    DATABASE_URL: config.DATABASE_URL,
    NATS_URL: config.NATS_URL,
    REDIS_URL: config.REDIS_URL,
    LOG_LEVEL: config.LOG_LEVEL,
    PUBLIC_URL: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    AUTH_SECRET: config.AUTH_SECRET,
    IDENTITY_SIGNING_KEY: config.IDENTITY_SIGNING_KEY,
    IDENTITY_VERIFY_KEYS: config.IDENTITY_VERIFY_KEYS,
    FILE_URL_SECRET: config.FILE_URL_SECRET,
    WEBHOOK_SECRET_KEYS: config.WEBHOOK_SECRET_KEYS,
  };
}

/**
 * The whole environment a process starts with: of `values`, the settings it declares (`settings`,
 * from its config schema), what its libraries read, and the runtime's own variables. Nothing by a
 * name's look: a secret reaches exactly the processes whose schema declares it, and a setting one
 * declares always reaches it.
 */
export function environmentFor(settings: readonly string[], values: Record<string, string | undefined>, libraryVariables?: RegExp): Record<string, string> {
  const declared = new Set(settings);
  const wanted = ([name, value]: [string, string | undefined]): boolean =>
    value !== undefined && (declared.has(name) || RUNTIME_VARIABLE.test(name) || (libraryVariables?.test(name) ?? false));
  return Object.fromEntries(Object.entries(values).filter(wanted)) as Record<string, string>;
}

/** Every name some process, or the launcher itself, reads as a setting. */
const READ = new Set([...LAUNCHER_SETTINGS, ...GATEWAY.serve, ...SERVICES.flatMap((service) => [...service.serve, ...service.migrate])]);

/** Whether some process is given `name`, or the launcher reads it. */
const isRead = (name: string) => READ.has(name) || RUNTIME_VARIABLE.test(name) || SERVICES.some((service) => service.libraryVariables?.test(name));

interface UnreadSetting {
  name: string;
  /** The setting it is a typo of; null for a retired one. */
  nearest: string | null;
}

/**
 * The variables of `environment` that look meant for Tollgate but that no process reads, each with
 * the setting it comes closest to. A variable looks meant for Tollgate when it was one of ours
 * (RETIRED_SETTINGS) or is within a typo of one: the same letters up to case, or one or two edits
 * away (two only for names long enough that two edits still leave them recognisable). That is how
 * a setting meant for us goes unread: `GITHUB_TOKEN_ULR`, `AUTH_SECERT`, `s3_bucket`. A mere shared
 * prefix is not enough, since other tools' variables share ours (`GITHUB_TOKEN` of the gh CLI,
 * `GITHUB_API_URL` on CI runners, `GOOGLE_APPLICATION_CREDENTIALS`, `SESSION_MANAGER` of a desktop),
 * and a warning about them at every start would teach people to ignore it.
 */
export function unreadSettings(environment: Record<string, string | undefined>): UnreadSetting[] {
  const known = [...READ];
  return Object.keys(environment)
    .filter((name) => environment[name] !== undefined && !isRead(name))
    .flatMap((name): UnreadSetting[] => {
      if (RETIRED_SETTINGS.includes(name)) return [{ name, nearest: null }];
      const nearest = known
        .map((setting) => ({ setting, distance: editDistance(name.toUpperCase(), setting) }))
        .filter(({ setting, distance }) => distance <= (setting.length >= 10 ? 2 : 1))
        .sort((a, b) => a.distance - b.distance)[0];
      return nearest ? [{ name, nearest: nearest.setting }] : [];
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Edits (insertions, deletions, substitutions, swaps of neighbours) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  const width = b.length + 1;
  const table = Array.from({ length: (a.length + 1) * width }, (_, cell) => (cell < width ? cell : cell % width === 0 ? cell / width : 0));
  const at = (i: number, j: number) => table[i * width + j] ?? 0;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const substitution = at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1);
      const swap = i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1] ? at(i - 2, j - 2) + 1 : Number.POSITIVE_INFINITY;
      table[i * width + j] = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, substitution, swap);
    }
  }
  return at(a.length, b.length);
}
