import { ConfigError } from "./config.js";
import { createLogger, type Logger } from "./logger.js";
import { StartupError } from "./startup.js";

interface ProgramConfig {
  LOG_LEVEL: string;
  SHUTDOWN_TIMEOUT_MS: number;
  /** Services serve on this long after a signal before they start closing (see SHUTDOWN_DRAIN_MS). */
  SHUTDOWN_DRAIN_MS?: number;
}

export interface ProgramOptions<Config extends ProgramConfig> {
  name: string;
  loadConfig(): Config;
  /** The default command: run until SIGTERM or SIGINT, then stop gracefully. */
  serve(config: Config, logger: Logger): Promise<{ stop(): Promise<void> }>;
  /** One-shot commands, chosen by the first argument (for example `migrate`). */
  commands?: Record<string, (config: Config, logger: Logger) => Promise<void>>;
}

/**
 * The entry point of every Tollgate process. Configuration problems and unreachable dependencies
 * end the process with plain lines on stderr, not stack traces; SIGTERM and SIGINT stop it
 * gracefully and exit 0; a second signal, or a stop that overruns its deadline, exits at once.
 */
export function runProgram<Config extends ProgramConfig>(options: ProgramOptions<Config>): void {
  const command = process.argv[2] ?? "serve";
  const fail = (lines: string[], code: number): never => {
    process.stderr.write(`${options.name}: ${lines.join("\n")}\n`);
    process.exit(code);
  };

  let config: Config;
  try {
    config = options.loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      return fail(["cannot start, the configuration is invalid:", ...error.problems.map((p) => `  ${p}`)], 78);
    }
    throw error;
  }
  const logger = createLogger({ service: options.name, level: config.LOG_LEVEL });
  const failStartup = (error: unknown): never => {
    if (error instanceof StartupError) return fail([error.message], 1);
    logger.fatal({ err: error }, `${command} failed`);
    process.exit(1);
  };

  if (command !== "serve") {
    const oneShot = options.commands?.[command];
    if (!oneShot) {
      const known = ["serve", ...Object.keys(options.commands ?? {})].join(", ");
      fail([`unknown command "${command}"; expected one of: ${known}`], 64);
      return;
    }
    oneShot(config, logger).then(() => process.exit(0), failStartup);
    return;
  }

  options.serve(config, logger).then((running) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        logger.warn({ signal }, "second signal; exiting without waiting");
        process.exit(1);
      }
      stopping = true;
      logger.info({ signal }, "shutting down");
      setTimeout(() => {
        logger.error("shutdown overran its deadline; exiting");
        process.exit(1);
      }, (config.SHUTDOWN_DRAIN_MS ?? 0) + config.SHUTDOWN_TIMEOUT_MS + 5_000).unref();
      running.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  }, failStartup);
}
