import { errors, type Msg, type Subscription } from "@nats-io/transport-node";
import { Reply, type RequestDefinition } from "@tollgate/proto";
import type { z } from "zod";
import { isDatabaseUnreachable } from "../db/connection.js";
import type { Logger } from "../logger.js";
import { checkCalls, checkServes } from "./access.js";
import type { BusConnection } from "./connection.js";

/** A request that got no usable answer: nobody listening, no reply in time, or a malformed reply. */
export class BusRequestError extends Error {
  constructor(
    readonly request: string,
    readonly reason: "no_responders" | "timeout" | "invalid_reply",
    message: string,
  ) {
    super(message);
    this.name = "BusRequestError";
  }
}

/** The responder answered with an error; `code` is the responder's own (for example NOT_FOUND). */
export class RemoteError extends Error {
  constructor(
    readonly request: string,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "RemoteError";
  }

  /** The responder could not reach its database (Postgres restarting): a moment's outage, as no answer is. */
  get unavailable(): boolean {
    return this.code === UNAVAILABLE;
  }
}

const UNAVAILABLE = "UNAVAILABLE";

/** Thrown by a responder's handler to answer with a specific error code instead of INTERNAL. */
export class ReplyError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ReplyError";
  }
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 2_000;
/**
 * How long to wait before sending again a request nobody was subscribed to take, while its time
 * lasts: nobody received it, so sending it again is safe, and responders that lost their connection
 * (NATS restarting, or a replica starting) subscribe again within moments.
 */
const NO_RESPONDERS_RETRY_MS = 100;

export async function request<Req extends z.ZodType, Res extends z.ZodType>(
  bus: BusConnection,
  definition: RequestDefinition<Req, Res>,
  payload: z.input<Req>,
  options: { timeoutMs?: number } = {},
): Promise<z.output<Res>> {
  checkCalls(bus.process, definition);
  const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const body = JSON.stringify(definition.request.parse(payload));
  const deadline = performance.now() + timeoutMs;
  const timedOut = () => new BusRequestError(definition.name, "timeout", `request ${definition.name} got no reply within ${timeoutMs} ms`);
  let message: Msg | null = null;
  while (!message) {
    // Not sent at all when the server stays away past the deadline: the caller has given up on it by then.
    if (!(await reachableBy(bus, deadline))) throw timedOut();
    try {
      message = await bus.nc.request(bus.names.requestSubject(definition.name), body, { timeout: Math.max(1, Math.round(deadline - performance.now())) });
    } catch (error) {
      if (error instanceof errors.RequestError && error.isNoResponders()) {
        if (deadline - performance.now() > NO_RESPONDERS_RETRY_MS) {
          await new Promise((resolve) => setTimeout(resolve, NO_RESPONDERS_RETRY_MS));
          continue;
        }
        throw new BusRequestError(definition.name, "no_responders", `request ${definition.name} failed: no service is answering it`);
      }
      if (error instanceof errors.TimeoutError) throw timedOut();
      throw error;
    }
  }
  const reply = Reply.safeParse(safeJson(message));
  if (!reply.success) {
    throw new BusRequestError(definition.name, "invalid_reply", `request ${definition.name} got a malformed reply`);
  }
  if (!reply.data.ok) throw new RemoteError(definition.name, reply.data.error.code, reply.data.error.message);
  const data = definition.response.safeParse(reply.data.data);
  if (!data.success) {
    throw new BusRequestError(definition.name, "invalid_reply", `request ${definition.name} got a reply that does not match its schema: ${data.error.message}`);
  }
  return data.data;
}

/**
 * Waits, until `deadline` at most, for the server while it is away (a request sent meanwhile would wait
 * in a buffer and be lost); whether it is there.
 */
async function reachableBy(bus: BusConnection, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const reached = await Promise.race([bus.reachable().then(() => true), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, deadline - performance.now()))))]);
  clearTimeout(timer);
  return reached;
}

function safeJson(message: Msg): unknown {
  try {
    return message.json();
  } catch {
    return undefined;
  }
}

/**
 * Answers a request subject; replicas share it through a queue group named after the service, so
 * each request is answered once.
 */
export function respond<Req extends z.ZodType, Res extends z.ZodType>(
  bus: BusConnection,
  definition: RequestDefinition<Req, Res>,
  options: { queue: string; logger: Logger },
  handler: (payload: z.output<Req>) => Promise<z.input<Res>>,
): Subscription {
  checkServes(bus.process, definition);
  const answer = async (message: Msg): Promise<Reply> => {
    const payload = definition.request.safeParse(safeJson(message));
    if (!payload.success) return { ok: false, error: { code: "BAD_REQUEST", message: payload.error.message } };
    try {
      return { ok: true, data: definition.response.parse(await handler(payload.data)) };
    } catch (error) {
      if (error instanceof ReplyError) return { ok: false, error: { code: error.code, message: error.message } };
      if (isDatabaseUnreachable(error)) {
        options.logger.warn({ err: error, request: definition.name }, "request handler could not reach the database");
        return { ok: false, error: { code: UNAVAILABLE, message: `${definition.name} cannot reach its database right now` } };
      }
      options.logger.error({ err: error, request: definition.name }, "request handler failed");
      return { ok: false, error: { code: "INTERNAL", message: `${definition.name} failed inside the responder` } };
    }
  };
  return bus.nc.subscribe(bus.names.requestSubject(definition.name), {
    queue: options.queue,
    callback: (error, message) => {
      if (error) return;
      void answer(message).then((reply) => message.respond(JSON.stringify(reply)));
    },
  });
}
