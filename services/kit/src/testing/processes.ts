import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";

export interface SpawnedProcess {
  child: ChildProcessWithoutNullStreams;
  /** Everything written so far to stdout and stderr. */
  output(): { stdout: string; stderr: string };
  /** Resolves when the process has written a line matching `pattern` to stdout or stderr. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts a TypeScript entry point the way a developer would: tsx, workspace packages from source. */
export function spawnTypeScript(entry: string, options: { args?: string[]; env?: Record<string, string> } = {}): SpawnedProcess {
  const child = spawn(process.execPath, ["--conditions=development", "--import", "tsx", entry, ...(options.args ?? [])], {
    env: { ...process.env, ...options.env },
  });
  return watch(child);
}

export function watch(child: ChildProcessWithoutNullStreams): SpawnedProcess {
  let stdout = "";
  let stderr = "";
  const waiters = new Set<() => void>();
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const check of waiters) check();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const check of waiters) check();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on("exit", (code, signal) => {
      resolve({ code, signal });
      for (const check of waiters) check();
    });
  });
  return {
    child,
    exited,
    output: () => ({ stdout, stderr }),
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no line matching ${String(pattern)} within ${timeoutMs} ms; output so far:\n${stdout}${stderr}`));
        }, timeoutMs);
        const check = () => {
          const line = `${stdout}\n${stderr}`.split("\n").find((candidate) => pattern.test(candidate));
          if (line !== undefined) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve(line);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            clearTimeout(timer);
            waiters.delete(check);
            reject(new Error(`exited (${child.exitCode ?? child.signalCode}) before writing ${String(pattern)}:\n${stdout}${stderr}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
  };
}
