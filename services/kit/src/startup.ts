import { maskUrlPassword } from "./config.js";

/** A dependency could not be reached at start; the message says which, where, and what to do. */
export class StartupError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "StartupError";
  }
}

const HOW_TO_START: Record<string, string> = {
  Postgres: "start PostgreSQL (pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start) or set DATABASE_URL",
  NATS: "start nats-server with JetStream (-js) or set NATS_URL",
  Redis: "start redis-server or set REDIS_URL",
};

export function describeStartupError(dependency: keyof typeof HOW_TO_START, url: string, cause: unknown): StartupError {
  const reason = cause instanceof Error ? cause.message || cause.name : String(cause);
  return new StartupError(
    `cannot use ${dependency} at ${maskUrlPassword(url)} (${reason}); ${HOW_TO_START[dependency] ?? `check ${dependency}`}`,
    { cause },
  );
}
