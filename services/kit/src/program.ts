import { ConfigError } from "./config.js";
import { createLogger, type Logger } from "./logger.js";
import { StartupError } from "./startup.js";

interface ProgramConfig {
  LOG_LEVEL: string;
  SHUTDOWN_TIMEOUT_MS: number;
  /** Services serve on this long after a signal before they start closing (see SHUTDOWN_DRAIN_MS). */
  SHUTDOWN_DRAIN_MS?: number;
}

/** A one-shot command (for example `migrate`) with the configuration it reads: no more than it uses, so it can be given no more. */
export interface ProgramCommand<Config extends { LOG_LEVEL: string }> {
  loadConfig(): Config;
  run(config: Config, logger: Logger): Promise<void>;
}

export interface ProgramOptions<Config extends ProgramConfig> {
  name: string;
  loadConfig(): Config;
  /** The default command: run until SIGTERM or SIGINT, then stop gracefully. */
  serve(config: Config, logger: Logger): Promise<{ stop(): Promise<void> }>;
  /** One-shot commands, chosen by the first argument. */
  commands?: Record<string, ProgramCommand<{ LOG_LEVEL: string }>>;
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
  const oneShot = command === "serve" ? null : options.commands?.[command];
  if (oneShot === undefined) {
    const known = ["serve", ...Object.keys(options.commands ?? {})].join(", ");
    fail([`unknown command "${command}"; expected one of: ${known}`], 64);
    return;
  }
  const loaded = <Loaded>(load: () => Loaded): Loaded => {
    try {
      return load();
    } catch (error) {
      if (error instanceof ConfigError) return fail(["cannot start, the configuration is invalid:", ...error.problems.map((p) => `  ${p}`)], 78);
      throw error;
    }
  };
  const failStartup = (logger: Logger) => (error: unknown): never => {
    if (error instanceof StartupError) return fail([error.message], 1);
    logger.fatal({ err: error }, `${command} failed`);
    process.exit(1);
  };

  if (oneShot) {
    const config = loaded(() => oneShot.loadConfig());
    const logger = createLogger({ service: options.name, level: config.LOG_LEVEL });
    oneShot.run(config, logger).then(() => process.exit(0), failStartup(logger));
    return;
  }

  const config = loaded(() => options.loadConfig());
  const logger = createLogger({ service: options.name, level: config.LOG_LEVEL });
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
  }, failStartup(logger));
}
