import { pbkdf2, pbkdf2Sync } from "node:crypto";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { cpuUse, snapshot } from "../cpu.js";

/**
 * bench/auth tells a server's event loop from its other threads (libuv's pool, where passwords are
 * hashed): work on the pool must count for the process but not for its main thread, and work on the
 * main thread for both.
 */
const hashOnPool = promisify(pbkdf2);
/** A fixed amount of work (about a tenth of a second of CPU), so the figures hold however busy the machine is. */
const ITERATIONS = 400_000;
const groups = { bench: [process.pid] };

async function measured(work: () => unknown) {
  const before = await snapshot([process.pid]);
  await work();
  const cpu = await cpuUse(before, await snapshot([process.pid]), groups);
  if (!cpu) throw new Error("no /proc here");
  return { process: cpu.cores.bench ?? 0, mainThread: cpu.mainThreadCores.bench ?? NaN, seconds: cpu.seconds };
}

it("counts the pool's work for the process and not for its main thread", { skip: process.platform !== "linux" }, async () => {
  const pool = await measured(() => Promise.all(Array.from({ length: 4 }, () => hashOnPool("password", "salt", ITERATIONS, 32, "sha256"))));
  expect(pool.process * pool.seconds).toBeGreaterThan(0.1);
  expect(pool.mainThread).toBeLessThan(pool.process / 4);

  const onMainThread = await measured(() => {
    for (let round = 0; round < 4; round++) pbkdf2Sync("password", "salt", ITERATIONS, 32, "sha256");
  });
  expect(onMainThread.mainThread * onMainThread.seconds).toBeGreaterThan(0.1);
  expect(onMainThread.mainThread).toBeGreaterThan(onMainThread.process * 0.8);
});
