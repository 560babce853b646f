import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiFailure, describeError, errorCode, failureOf, fetchWithRetry, isRetryable, request, retryDelay } from "../src/api/client";

/** A real HTTP peer whose answers the tests script, counting the requests it gets. */
let server: Server;
let base: string;
const script: { status: number; body: string }[] = [];
let served = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    served += 1;
    const next = script.shift() ?? { status: 200, body: JSON.stringify({ method: req.method, url: req.url }) };
    res.writeHead(next.status, next.status === 503 ? "Service Unavailable" : undefined, { "content-type": "application/json" }).end(next.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => server?.close());

/** Records the waits instead of waiting. */
function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: (ms: number) => (waits.push(ms), Promise.resolve()) };
}

describe("the app's API client", () => {
  it("waits 1000 ms between retries by default, linearly, or doubling up to a cap", () => {
    expect([1, 2, 3].map((attempt) => retryDelay({ type: "linear", attempts: 3 }, attempt))).toEqual([1000, 1000, 1000]);
    expect([1, 2, 3].map((attempt) => retryDelay({ type: "linear", attempts: 3, delay: 250 }, attempt))).toEqual([250, 250, 250]);
    expect([1, 2, 3, 4, 5, 6].map((attempt) => retryDelay({ type: "exponential", attempts: 6, maxDelay: 10_000 }, attempt))).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
    expect(retryDelay({ type: "exponential", attempts: 2, baseDelay: 100 }, 2)).toBe(200);
  });

  it("retries a read after a server error and answers with the data", async () => {
    script.push({ status: 503, body: "{}" }, { status: 502, body: "{}" });
    const { waits, sleep } = recordingSleep();
    served = 0;
    const result = await request<{ method: string }>(`${base}/things`, { sleep });
    expect(result).toEqual({ method: "GET", url: "/things" });
    expect(served).toBe(3);
    expect(waits).toEqual([1000, 1000]);
  });

  it("rejects with an ApiFailure carrying {status, statusText, body} once the retries are spent, and never retries a client error", async () => {
    const { sleep } = recordingSleep();
    script.push({ status: 503, body: '{"message":"down"}' }, { status: 503, body: '{"message":"down"}' }, { status: 503, body: '{"message":"still down"}' });
    const down = await request(`${base}/down`, { sleep }).catch((reason: unknown) => reason);
    expect(down).toBeInstanceOf(ApiFailure);
    expect(failureOf(down)).toEqual({ status: 503, statusText: "Service Unavailable", body: { message: "still down" } });
    served = 0;
    script.push({ status: 422, body: '{"detail":"bad"}' });
    const refused = await request(`${base}/refused`, { sleep }).catch((reason: unknown) => failureOf(reason));
    expect(refused).toMatchObject({ status: 422, body: { detail: "bad" } });
    expect(served).toBe(1);
  });

  it("retries a write only when asked to", async () => {
    const { waits, sleep } = recordingSleep();
    served = 0;
    script.push({ status: 503, body: "{}" });
    expect((await request<never>(`${base}/write`, { method: "POST", body: { a: 1 }, sleep }).catch((reason: unknown) => failureOf(reason))).status).toBe(503);
    expect(served).toBe(1);
    script.push({ status: 503, body: "{}" });
    const retried = await request<{ method: string }>(`${base}/write`, { method: "POST", body: { a: 1 }, sleep, retry: { type: "exponential", attempts: 3, baseDelay: 50 } });
    expect(retried.method).toBe("POST");
    expect(waits).toEqual([50]);
  });

  it("rejects a network failure as an ApiFailure with status 0", async () => {
    const { waits, sleep } = recordingSleep();
    const failure = await request<never>("http://127.0.0.1:1/nowhere", { sleep, retry: { type: "linear", attempts: 1, delay: 10 } }).catch((reason: unknown) => failureOf(reason));
    expect(failure).toMatchObject({ status: 0, statusText: "Network error" });
    expect(waits).toEqual([10]);
    expect(describeError(failure)).toBe("Tollgate could not be reached. Check your connection and try again.");
    await expect(fetchWithRetry("http://127.0.0.1:1/nowhere", {}, { sleep, retry: { type: "linear", attempts: 0 } })).rejects.toThrow();
  });

  it("says a failure in the reader's words for a code it knows, and in the API's own words for one it does not", () => {
    expect(describeError({ status: 401, statusText: "Unauthorized", body: { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" } })).toBe("The e-mail address or password is wrong.");
    expect(describeError({ status: 404, statusText: "Not Found", body: { error: "ResourceNotFound", detail: "Product not found" } })).toBe("This could not be found. It may have been removed.");
    expect(describeError({ status: 400, statusText: "Bad Request", body: { code: "A_CODE_FROM_TOMORROW", message: "Something new happened" } })).toBe("Something new happened");
    expect(describeError({ status: 404, statusText: "Not Found", body: { error: "SomethingElse", detail: "Product not found" } })).toBe("Product not found");
    expect(describeError({ status: 429, statusText: "Too Many Requests", body: null })).toBe("Too many attempts. Wait a moment and try again.");
    expect(describeError({ status: 500, statusText: "Internal Server Error", body: "oops" })).toBe("500 Internal Server Error");
    expect([0, 408, 429, 500, 503, 501, 404].map(isRetryable)).toEqual([true, true, true, true, true, false, false]);
    expect(errorCode({ status: 400, statusText: "Bad Request", body: { code: "USER_IS_NOT_A_MEMBER_OF_THE_TEAM", message: "…" } })).toBe("USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
    expect(errorCode({ status: 404, statusText: "Not Found", body: { error: "ResourceNotFound", detail: "…" } })).toBe("ResourceNotFound");
    expect(errorCode({ status: 0, statusText: "Network error", body: null })).toBeUndefined();
  });
});
