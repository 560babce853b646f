import { defineMessages } from "react-intl";
import { t } from "../i18n/translate";
import { messageForCode } from "./error-messages";
import type { Pagination } from "./wire";

/**
 * The one way the app talks to the gateway. Every call resolves with the data or rejects with an
 * `ApiFailure` carrying the failure as `{status, statusText, body}` (status 0 when the network
 * failed), so TanStack Query's `error`, retries and error states work the same on every screen.
 */
export interface ApiError {
  status: number;
  statusText: string;
  body: unknown;
}

/** Polar's answer to a list: one page of items, and how many there are in all. */
export interface Listing<Item> {
  items: Item[];
  pagination: Pagination;
}

/** Waits between attempts: the same delay each time, or doubling from a base up to a cap. */
export type RetryPolicy =
  | { type: "linear"; attempts: number; delay?: number }
  | { type: "exponential"; attempts: number; baseDelay?: number; maxDelay?: number };

export const DEFAULT_RETRY_DELAY_MS = 1_000;
const DEFAULT_MAX_DELAY_MS = 30_000;
/** Reads are retried twice by default; writes only when a caller asks. */
export const DEFAULT_READ_RETRY: RetryPolicy = { type: "linear", attempts: 2 };

/** How long to wait before retry number `attempt` (1 for the first retry). */
export function retryDelay(policy: RetryPolicy, attempt: number): number {
  if (policy.type === "linear") return policy.delay ?? DEFAULT_RETRY_DELAY_MS;
  const base = policy.baseDelay ?? DEFAULT_RETRY_DELAY_MS;
  return Math.min(base * 2 ** (attempt - 1), policy.maxDelay ?? DEFAULT_MAX_DELAY_MS);
}

/** Failures worth another try: the network, a timeout, too many requests, or the server's own trouble. */
export const isRetryable = (status: number) => status === 0 || status === 408 || status === 429 || (status >= 500 && status !== 501);

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const networkError = (reason: unknown): ApiError => ({
  status: 0,
  statusText: "Network error",
  body: { message: reason instanceof Error ? reason.message : String(reason) },
});

export interface FetchSettings {
  retry?: RetryPolicy;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * fetch, with retries for failures worth retrying: reads by default, writes when `settings.retry` is
 * given. Still throws when the network fails on the last attempt, as fetch does.
 */
export async function fetchWithRetry(input: RequestInfo | URL, init: RequestInit = {}, settings: FetchSettings = {}): Promise<Response> {
  const method = (init.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
  const policy = settings.retry ?? (SAFE_METHODS.has(method) ? DEFAULT_READ_RETRY : null);
  const doFetch = settings.fetch ?? fetch;
  const sleep = settings.sleep ?? defaultSleep;
  for (let attempt = 0; ; attempt++) {
    const last = !policy || attempt >= policy.attempts;
    try {
      const response = await doFetch(input instanceof Request ? input.clone() : input, init);
      if (last || !isRetryable(response.status)) return response;
    } catch (error) {
      if (last || init.signal?.aborted) throw error;
    }
    await sleep(retryDelay(policy, attempt + 1));
  }
}

async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export interface RequestOptions extends FetchSettings {
  method?: string;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A JSON call to the gateway (`path` like `/v1/products/`), with the session cookie; rejects with an ApiFailure. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = "GET", body, headers, signal, ...settings } = options;
  let response: Response;
  try {
    response = await fetchWithRetry(
      path,
      {
        method,
        signal,
        credentials: "include",
        headers: { accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      settings,
    );
  } catch (error) {
    throw new ApiFailure(networkError(error));
  }
  const parsed = await bodyOf(response);
  if (!response.ok) throw new ApiFailure({ status: response.status, statusText: response.statusText, body: parsed });
  return parsed as T;
}

/** The API's machine-readable code for a failure (better-auth's `code`, Polar's `error`), if it gave one. */
export function errorCode(error: ApiError): string | undefined {
  const body = error.body;
  if (!body || typeof body !== "object") return undefined;
  if ("code" in body && typeof body.code === "string") return body.code;
  if ("error" in body && typeof body.error === "string") return body.error;
  return undefined;
}

const messages = defineMessages({
  unreachable: { id: "api.error.unreachable", defaultMessage: "Tollgate could not be reached. Check your connection and try again." },
  tooManyAttempts: { id: "api.error.tooManyAttempts", defaultMessage: "Too many attempts. Wait a moment and try again." },
  requestFailed: { id: "api.error.requestFailed", defaultMessage: "Request failed" },
});

/**
 * A failure in words, in the reader's language: what its code means when the app knows the code,
 * else the API's own (English) message, else the status.
 */
export function describeError(error: ApiError): string {
  if (error.status === 0) return t(messages.unreachable);
  const code = errorCode(error);
  const known = code === undefined ? undefined : messageForCode(code);
  if (known) return t(known);
  const body = error.body;
  if (body && typeof body === "object") {
    if ("message" in body && typeof body.message === "string" && body.message) return body.message;
    if ("detail" in body && typeof body.detail === "string") return body.detail;
  }
  if (error.status === 429) return t(messages.tooManyAttempts);
  return `${error.status} ${error.statusText || t(messages.requestFailed)}`;
}

/** Why a call was rejected, as an ApiError: an ApiFailure's own, anything else as a network failure. */
export const failureOf = (reason: unknown): ApiError => (reason instanceof ApiFailure ? reason.failure : networkError(reason));

/** A rejected call in words, in the reader's language (see describeError). */
export const describeFailure = (reason: unknown) => describeError(failureOf(reason));

/** Awaits a call for a screen that only says how it went: null once it resolved, else its failure in words. */
export async function failureIn(call: Promise<unknown>): Promise<string | null> {
  try {
    await call;
    return null;
  } catch (reason) {
    return describeFailure(reason);
  }
}

/** The rejection of every API call: the ApiError it carries, and that failure in words as its message. */
export class ApiFailure extends Error {
  constructor(readonly failure: ApiError) {
    super(describeError(failure));
    this.name = "ApiFailure";
  }
}

// Every queryFn and mutationFn here rejects with an ApiFailure (see request).
declare module "@tanstack/react-query" {
  interface Register {
    defaultError: ApiFailure;
  }
}
