import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/**
 * `npm test`: the type checks and the linter side by side, then the services' files and the
 * whole-stack files as two Vitest runs side by side. The whole-stack files go one at a time (each
 * starts every service, some a browser), and they mostly wait on those processes; the services'
 * files mostly wait on Postgres, NATS and HTTP. Run one after the other they left the two cores idle
 * a third of the time; side by side they share them. Each run has its own databases and prefixes.
 * Arguments (`npm test -- services/kit/test/outbox.test.ts`) go to a single Vitest run instead.
 */

interface Job {
  name: string;
  command: string[];
}

/** Runs a job, each line of its output marked with its name; resolves to whether it passed. */
function run({ name, command }: Job): Promise<boolean> {
  const [program, ...args] = command;
  const child = spawn(program!, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "1" } });
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    createInterface({ input: stream }).on("line", (line) => out.write(`[${name}] ${line}\n`));
  }
  return new Promise((resolve) => {
    child.on("error", (error) => {
      process.stderr.write(`[${name}] could not start: ${error.message}\n`);
      resolve(false);
    });
    child.on("close", (code, signal) => {
      if (code !== 0) process.stderr.write(`[${name}] failed (${signal ?? `exit code ${code}`})\n`);
      resolve(code === 0);
    });
  });
}

async function side(jobs: Job[]): Promise<boolean> {
  const passed = await Promise.all(jobs.map(run));
  return passed.every(Boolean);
}

const chosen = process.argv.slice(2);
const npx = (...args: string[]) => ["npx", "--no-install", ...args];

const checked = await side([
  { name: "typecheck", command: ["npm", "run", "--silent", "typecheck"] },
  { name: "lint", command: ["npm", "run", "--silent", "lint"] },
]);
const tested =
  checked &&
  (chosen.length > 0
    ? await run({ name: "vitest", command: npx("vitest", "run", ...chosen) })
    : await side([
        { name: "services", command: npx("vitest", "run", "--project", "services") },
        { name: "whole stack", command: npx("vitest", "run", "--project", "whole stack") },
      ]));
process.exitCode = tested ? 0 : 1;
