/** What every benchmark here shares: its settings, its progress lines and how it prints figures. */

/** A positive whole-number setting from the environment, or its default. */
export function envInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** The value at `p` (0–1) of already sorted values; 0 for none. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

export const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 0.5);

/** The same Postgres server, another database. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

const benchStarted = performance.now();

/** A progress line on stderr, stamped with the seconds since the bench began; the results go to stdout. */
export function progress(message: string): void {
  console.error(`[${((performance.now() - benchStarted) / 1000).toFixed(1).padStart(6)}s] ${message}`);
}

export const formatRate = (value: number) => `${Math.round(value).toLocaleString("en-US")}/s`;
export const formatMs = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;
