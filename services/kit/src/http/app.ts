import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import express, { type ErrorRequestHandler, type Express, type Request, type Response } from "express";
import helmet from "helmet";
import { performance } from "node:perf_hooks";
import type { Logger } from "../logger.js";
import type { Metrics } from "../metrics.js";
import { BusRequestError, RemoteError } from "../bus/rpc.js";
import { isDatabaseUnreachable } from "../db/connection.js";
import { refusedValueOf } from "../db/data-exceptions.js";
import { HttpError, MalformedBodyError, ValidationError, type ErrorContract } from "./errors.js";
import { loggableUrl } from "./loggable-url.js";

export type ReadinessCheck = () => Promise<unknown>;

export interface HttpAppOptions {
  logger: Logger;
  metrics: Metrics;
  /** The error shape of the API this app serves; the gateway picks one per request. */
  errors: ErrorContract | ((req: Request) => ErrorContract);
  /** Named dependencies that must answer for `/readyz` to say ready. */
  readiness: Record<string, ReadinessCheck>;
  /**
   * Dependencies the process serves without, less well (Redis: a cache, rate limits, idempotency keys):
   * `/readyz` reports them, and says `degraded` rather than unready while one does not answer, so that
   * a balancer does not take every replica out of service for an outage they ride out.
   */
  degradable?: Record<string, ReadinessCheck>;
  isShuttingDown(): boolean;
  /**
   * Which peers may set X-Forwarded-For (express's `trust proxy`): the gateway trusts only the proxies
   * it is told about; services trust nobody's (the default), as the gateway signs the client's address
   * into the identity token.
   */
  trustProxy?: boolean | string[];
  /** Adds helmet's headers; the gateway does, services behind it need not. */
  securityHeaders?: boolean;
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;
const PROBES = new Set(["/healthz", "/readyz"]);
/** Requests whose values come in the query (and path), not a body. */
const BODILESS_METHODS = new Set(["GET", "HEAD", "DELETE", "OPTIONS"]);
const READINESS_TIMEOUT_MS = 2_000;

/** helmet's headers, made once: the gateway adds them to everything it answers, inside express or not. */
export const securityHeaders = helmet();

/**
 * Request id, latency metric and access log in one cheap step: this runs on every request, inside
 * express or before it. `routeOf` names the matched route once the response is finished.
 */
export function trackRequest(
  req: IncomingMessage,
  res: ServerResponse,
  { logger, metrics }: Pick<HttpAppOptions, "logger" | "metrics">,
  routeOf: () => string,
): void {
  const incoming = req.headers["x-request-id"];
  const id = typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader("x-request-id", id);
  // Proxied and logged onwards under the same id, so one request can be followed across services.
  req.headers["x-request-id"] = id;
  const url = req.url ?? "/";
  const started = performance.now();
  res.on("finish", () => {
    const seconds = (performance.now() - started) / 1000;
    metrics.httpDuration.observe({ method: req.method, route: routeOf(), status: String(res.statusCode) }, seconds);
    if (PROBES.has(url.split("?", 1)[0] ?? url)) return;
    const level = res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info";
    // Headers stay out of access logs: they carry cookies and tokens, and the id links the rest.
    if (logger.isLevelEnabled(level)) {
      logger[level]({ reqId: id, status: res.statusCode, ms: Math.round(seconds * 1000) }, `${req.method} ${loggableUrl(url)} ${res.statusCode}`);
    }
  });
}

/**
 * The express app every process starts from: request ids, access logs, latency metrics, helmet,
 * health endpoints, then the caller's routes, then one error mapper.
 */
export function createHttpApp(options: HttpAppOptions, mountRoutes: (app: Express) => void): Express {
  const { logger } = options;
  const contractFor = (req: Request) => (typeof options.errors === "function" ? options.errors(req) : options.errors);
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", options.trustProxy ?? false);

  app.use((req, res, next) => {
    trackRequest(req, res, options, () => (req.route ? `${req.baseUrl}${(req.route as { path: string }).path}` : "unmatched"));
    next();
  });
  // Browser security headers belong on what the public sees: the gateway's responses.
  if (options.securityHeaders) app.use(securityHeaders);
  app.use((_req, res, next) => {
    // Keep-alive connections must not outlive a shutdown that is waiting for them to go idle.
    if (options.isShuttingDown()) res.setHeader("connection", "close");
    next();
  });

  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    if (options.isShuttingDown()) {
      res.status(503).json({ status: "shutting_down", checks: {} });
      return;
    }
    const results = (checks: Record<string, ReadinessCheck>) => Promise.all(Object.entries(checks).map(async ([name, check]) => [name, await runCheck(check)] as const));
    const [required, optional] = await Promise.all([results(options.readiness), results(options.degradable ?? {})]);
    const ready = required.every(([, result]) => result === "ok");
    const whole = optional.every(([, result]) => result === "ok");
    const status = !ready ? "unavailable" : whole ? "ready" : "degraded";
    res.status(ready ? 200 : 503).json({ status, checks: Object.fromEntries([...required, ...optional]) });
  });

  mountRoutes(app);

  app.use((req, _res, next) => {
    next(new HttpError(404, contractFor(req).codes.not_found, `no route for ${req.method} ${req.path}`));
  });
  const mapError: ErrorRequestHandler = (error: unknown, req, res, _next) => {
    try {
      renderError(error, req, res);
    } catch (failure) {
      // Whatever went wrong rendering the error, express's own error page (an HTML stack trace) must not answer.
      logger.error({ err: failure, reqId: req.get("x-request-id") }, "could not render an error");
      if (res.headersSent) res.destroy();
      else res.status(500).type("application/json").end(JSON.stringify(contractFor(req).body(contractFor(req).codes.internal, "internal error")));
    }
  };
  const renderError = (error: unknown, req: Request, res: Response) => {
    const contract = contractFor(req);
    if (res.headersSent) {
      logger.error({ err: error, reqId: req.get("x-request-id") }, "error after the response started");
      res.destroy();
      return;
    }
    if (error instanceof ValidationError) {
      const { status, body } = contract.validation(error.issues);
      res.status(status).json(body);
      return;
    }
    if (error instanceof HttpError) {
      res.status(error.status).set(error.headers).json({ ...contract.body(error.code, error.message), ...error.fields });
      return;
    }
    const clientError = asClientError(error);
    if (error instanceof MalformedBodyError || clientError?.type === "entity.parse.failed") {
      const { status, body } = contract.malformedBody(error instanceof MalformedBodyError ? error.message : "Invalid JSON in request body");
      res.status(status).json(body);
      return;
    }
    if (clientError?.type === "entity.too.large") {
      res.status(413).json(contract.body(contract.codes.payload_too_large, `request body is larger than ${clientError.limit} bytes`));
      return;
    }
    if (clientError?.status === 404) {
      res.status(404).json(contract.body(contract.codes.not_found, `nothing at ${req.path}`));
      return;
    }
    if (clientError) {
      res.status(clientError.status).json(contract.body(contract.codes.bad_request, clientError.expose ? clientError.message : "bad request"));
      return;
    }
    const refusedValue = refusedValueOf(error);
    if (refusedValue) {
      // Postgres could not take a value of the request: the caller's to fix, so a validation error in
      // the contract's shape. Logged, since a schema should have refused it before it reached a statement.
      logger.warn({ err: error, reqId: req.get("x-request-id") }, "a request value failed a statement");
      const location = BODILESS_METHODS.has(req.method) ? "query" : "body";
      const { status, body } = contract.validation([{ location, path: [], message: refusedValue.message, code: refusedValue.type }]);
      res.status(status).json(body);
      return;
    }
    if (error instanceof BusRequestError || (error instanceof RemoteError && error.unavailable) || isDatabaseUnreachable(error)) {
      // Another service did not answer in time, or its Postgres or ours is away (restarting): a moment's outage, not a fault here.
      logger.warn({ err: error, reqId: req.get("x-request-id") }, "a service this request needs did not answer");
      res.status(503).json(contract.body(contract.codes.unavailable, "a service this request needs is not answering; try again shortly"));
      return;
    }
    logger.error({ err: error, reqId: req.get("x-request-id") }, "unhandled error");
    res.status(500).json(contract.body(contract.codes.internal, `internal error; quote reference ${req.get("x-request-id")}`));
  };
  app.use(mapError);
  return app;
}

async function runCheck(check: ReadinessCheck): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${READINESS_TIMEOUT_MS} ms`)), READINESS_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return "ok";
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

interface ClientError extends Error {
  status: number;
  /** Set by http-errors when the message is meant for the client. */
  expose?: boolean;
  type?: string;
  limit?: number;
}

/** The 4xx errors express's own middleware raises (body-parser, serve-static). */
function asClientError(error: unknown): ClientError | null {
  if (error instanceof Error && "status" in error && typeof error.status === "number" && error.status >= 400 && error.status < 500) {
    return error as ClientError;
  }
  return null;
}

/**
 * Prometheus's /metrics on a listener of its own (METRICS_HOST:METRICS_PORT), never on the API's port:
 * what the process measures is for the operator's scraper, not for whoever reaches the API. None
 * without METRICS_PORT.
 */
export function serveMetrics(metrics: Metrics, config: { METRICS_PORT?: number; METRICS_HOST: string }): Promise<Server | null> {
  if (config.METRICS_PORT === undefined) return Promise.resolve(null);
  return listen(
    (req, res) => {
      if (req.method !== "GET" || (req.url ?? "").split("?", 1)[0] !== "/metrics") {
        res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
        return;
      }
      metrics.registry.metrics().then(
        (text) => res.writeHead(200, { "content-type": metrics.registry.contentType }).end(text),
        () => res.writeHead(500, { "content-type": "text/plain" }).end("metrics failed\n"),
      );
    },
    config.METRICS_PORT,
    config.METRICS_HOST,
  );
}

/** Starts listening with an express app (or any request listener); resolves once the port is bound. */
export function listen(handler: RequestListener, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(handler);
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}

/**
 * Stops accepting connections and resolves when in-flight requests have finished; connections
 * still busy after `timeoutMs` are cut.
 */
export function closeServer(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
    // A keep-alive connection whose request finishes during shutdown turns idle; close it then
    // rather than waiting out the keep-alive timeout.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    server.close(() => {
      clearTimeout(deadline);
      clearInterval(sweep);
      resolve();
    });
    server.closeIdleConnections();
  });
}
