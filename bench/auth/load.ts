/**
 * autocannon runs with every response checked: a status other than 2xx, a body that is not the
 * expected answer, a connection error or a timeout each count as a failure, and a figure with any
 * failure is flagged as broken rather than trusted. Latencies are kept per request (autocannon's own
 * percentiles are whole milliseconds), so that rounds of one measurement can be merged exactly.
 */
import autocannon from "autocannon";

export interface Target {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  /** True when a 2xx body is the right answer (cheap: it runs for every response). */
  verify(body: string): boolean;
}

export interface Figures {
  requests: number;
  seconds: number;
  rps: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  max: number;
  failures: number;
  /** What the failures were, e.g. "12 × 401, 3 wrong bodies"; empty when there were none. */
  failureKinds: string;
  /** Every response's latency in milliseconds, sorted. */
  latencies: Float64Array;
}

const running = new Set<autocannon.Instance>();

/** Stops every run in progress; each still resolves with what it measured until then. */
export function stopAllLoad(): void {
  for (const instance of running) instance.stop();
}

export function load(target: Target, options: { connections: number; seconds: number }): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const instance = autocannon(
      {
        url: target.url,
        method: target.method,
        headers: target.headers,
        body: target.body,
        connections: options.connections,
        duration: options.seconds,
        verifyBody: (body) => typeof body === "string" && target.verify(body),
      },
      (error: Error | null, result: autocannon.Result) => {
        running.delete(instance);
        if (error) return reject(error);
        resolve(figuresOf(result, latencies));
      },
    );
    instance.on("response", (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
    running.add(instance);
  });
}

function figuresOf(result: autocannon.Result, latencies: number[]): Figures {
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => !code.startsWith("2"))
    .map(([code, stats]) => `${stats.count ?? 0} × ${code}`);
  // autocannon checks the body of every response, so a non-2xx one also counts as a mismatch.
  const wrongBodies = Math.max(0, result.mismatches - result.non2xx);
  const kinds = [
    ...statuses,
    ...(wrongBodies > 0 ? [`${wrongBodies} wrong bodies`] : []),
    ...(result.errors > 0 ? [`${result.errors} connection errors (${result.timeouts} timeouts)`] : []),
  ];
  return withLatencies(
    { requests: result.requests.total, seconds: result.duration, failures: result.non2xx + wrongBodies + result.errors, failureKinds: kinds.join(", ") },
    Float64Array.from(latencies).sort(),
  );
}

function withLatencies(counts: Pick<Figures, "requests" | "seconds" | "failures" | "failureKinds">, sorted: Float64Array): Figures {
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  return { ...counts, rps: counts.requests / counts.seconds, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? NaN, latencies: sorted };
}

/** One measurement from several rounds of it: requests over the time they took, every latency. */
export function merge(rounds: Figures[]): Figures {
  const latencies = new Float64Array(rounds.reduce((sum, round) => sum + round.latencies.length, 0));
  let offset = 0;
  for (const round of rounds) {
    latencies.set(round.latencies, offset);
    offset += round.latencies.length;
  }
  return withLatencies(
    {
      requests: rounds.reduce((sum, round) => sum + round.requests, 0),
      seconds: rounds.reduce((sum, round) => sum + round.seconds, 0),
      failures: rounds.reduce((sum, round) => sum + round.failures, 0),
      failureKinds: rounds
        .map((round) => round.failureKinds)
        .filter(Boolean)
        .join("; "),
    },
    latencies.sort(),
  );
}
