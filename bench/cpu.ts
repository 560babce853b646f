/**
 * CPU time spent by each process during a measurement, from /proc (Linux; elsewhere the bench
 * prints no CPU figures). On a shared machine this shows where the cores went: the servers, their
 * Postgres backends and Redis, the load generator, and anything else that was running meanwhile.
 */
import { readdir, readFile } from "node:fs/promises";

/** USER_HZ: /proc counts CPU time in ticks of 1/100 s on every Linux build Node runs on. */
const TICKS_PER_SECOND = 100;
/** Processes outside the groups using more than this share of a core are named in the report. */
const NOTABLE_CORES = 0.05;

/** Named groups of process ids (a server, Postgres backends, the bench itself). */
export type CpuGroups = Record<string, number[]>;

export interface CpuSnapshot {
  at: number;
  /** Seconds of CPU and command name of every process. */
  byPid: Map<number, { seconds: number; name: string }>;
  /** Seconds the whole machine was busy, summed over its cores. */
  machineBusy: number;
  /** Seconds of CPU of the main thread (a node server's event loop) of the processes asked for. */
  mainThreads: Map<number, number>;
}

export interface CpuUse {
  seconds: number;
  /** Each group's share of one core over the measurement (1 = one core flat out), and `other`. */
  cores: Record<string, number>;
  machineCores: number;
  /** Processes outside the groups that used a notable share: something else ran meanwhile. */
  others: { pid: number; command: string; cores: number }[];
  /**
   * For groups whose processes' main threads were followed: the share of a core those used. For a
   * node server that is its event loop; the rest of the group's share went to its other threads
   * (libuv's pool, where passwords are hashed, and V8's helpers).
   */
  mainThreadCores: Record<string, number>;
}

/** A process's CPU time, or its main thread's alone (`/proc/<pid>/task/<pid>`). */
async function processTimes(pid: number, mainThreadOnly = false): Promise<{ seconds: number; name: string } | null> {
  try {
    const stat = await readFile(mainThreadOnly ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
    const close = stat.lastIndexOf(")");
    const fields = stat.slice(close + 2).split(" ");
    // utime and stime are fields 14 and 15 of the whole line, so 12 and 13 after the name.
    return { seconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND, name: stat.slice(stat.indexOf("(") + 1, close) };
  } catch {
    return null; // gone meanwhile
  }
}

async function machineBusySeconds(): Promise<number> {
  const [cpu] = (await readFile("/proc/stat", "utf8")).split("\n");
  const ticks = (cpu ?? "").trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already counted in user).
  return ticks.slice(0, 8).reduce((sum, value, index) => (index === 3 || index === 4 ? sum : sum + value), 0) / TICKS_PER_SECOND;
}

/** Every process's CPU time so far, and the main thread's of `mainThreadsOf`; null where there is no /proc. */
export async function snapshot(mainThreadsOf: number[] = []): Promise<CpuSnapshot | null> {
  try {
    const machineBusy = await machineBusySeconds();
    const pids = (await readdir("/proc")).filter((entry) => /^\d+$/.test(entry)).map(Number);
    const byPid = new Map<number, { seconds: number; name: string }>();
    await Promise.all(
      pids.map(async (pid) => {
        const times = await processTimes(pid);
        if (times) byPid.set(pid, times);
      }),
    );
    const mainThreads = new Map<number, number>();
    for (const pid of mainThreadsOf) {
      const times = await processTimes(pid, true);
      if (times) mainThreads.set(pid, times.seconds);
    }
    return { at: performance.now(), byPid, machineBusy, mainThreads };
  } catch {
    return null;
  }
}

/**
 * What each group of processes used between two snapshots. A process missing from the first
 * (a Postgres backend opened during the measurement) counts from zero.
 */
export async function cpuUse(before: CpuSnapshot | null, after: CpuSnapshot | null, groups: CpuGroups): Promise<CpuUse | null> {
  if (!before || !after) return null;
  const seconds = (after.at - before.at) / 1000;
  const used = (pid: number) => Math.max(0, (after.byPid.get(pid)?.seconds ?? 0) - (before.byPid.get(pid)?.seconds ?? 0));
  const cores: Record<string, number> = {};
  const mainThreadCores: Record<string, number> = {};
  const grouped = new Set<number>();
  for (const [group, pids] of Object.entries(groups)) {
    cores[group] = pids.reduce((sum, pid) => sum + used(pid), 0) / seconds;
    for (const pid of pids) grouped.add(pid);
    const followed = pids.filter((pid) => before.mainThreads.has(pid) && after.mainThreads.has(pid));
    if (followed.length > 0) {
      mainThreadCores[group] = followed.reduce((sum, pid) => sum + (after.mainThreads.get(pid) ?? 0) - (before.mainThreads.get(pid) ?? 0), 0) / seconds;
    }
  }
  const machine = (after.machineBusy - before.machineBusy) / seconds;
  cores.other = Math.max(0, machine - Object.values(cores).reduce((sum, value) => sum + value, 0));
  const notable = [...after.byPid.keys()].filter((pid) => !grouped.has(pid) && used(pid) / seconds >= NOTABLE_CORES);
  const commands = await Promise.all(notable.map(async (pid) => ({ pid, command: await commandOf(pid), cores: used(pid) / seconds })));
  // Kernel threads (no command line) work for every process, the measured ones included.
  const others = commands.filter((other) => other.command !== "").sort((a, b) => b.cores - a.cores);
  return { seconds, cores, machineCores: machine, others, mainThreadCores };
}

async function commandOf(pid: number): Promise<string> {
  const command = await readFile(`/proc/${pid}/cmdline`, "utf8").then(
    (text) => text.split("\0").join(" ").trim(),
    () => "",
  );
  return command.length > 90 ? `${command.slice(0, 87)}...` : command;
}

/**
 * Waits until the given processes have all but stopped using CPU, so that work still queued from
 * the previous run (sign-ins waiting for a hashing thread when autocannon stopped) does not land in
 * the next measurement. False if they were still busy at the deadline.
 */
export async function settle(pids: number[], options = { belowCores: 0.1, windowMs: 300, timeoutMs: 10_000 }): Promise<boolean> {
  const total = async () => {
    const times = await Promise.all(pids.map((pid) => processTimes(pid)));
    return times.reduce((sum, time) => sum + (time?.seconds ?? 0), 0);
  };
  const deadline = performance.now() + options.timeoutMs;
  let last = await total();
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, options.windowMs));
    const now = await total();
    if ((now - last) / (options.windowMs / 1000) < options.belowCores) return true;
    last = now;
  }
  return false;
}

/** One measurement's CPU use from its rounds, weighted by their durations. */
export function mergeCpu(rounds: (CpuUse | null)[]): CpuUse | null {
  const known = rounds.filter((round): round is CpuUse => round !== null);
  if (known.length === 0 || known.length < rounds.length) return null;
  const seconds = known.reduce((sum, round) => sum + round.seconds, 0);
  const weighted = (value: (round: CpuUse) => number) => known.reduce((sum, round) => sum + value(round) * round.seconds, 0) / seconds;
  const groups = [...new Set(known.flatMap((round) => Object.keys(round.cores)))];
  const others = new Map<number, { pid: number; command: string; cores: number }>();
  for (const round of known) {
    for (const other of round.others) {
      const entry = others.get(other.pid) ?? { ...other, cores: 0 };
      entry.cores += (other.cores * round.seconds) / seconds;
      others.set(other.pid, entry);
    }
  }
  const followed = [...new Set(known.flatMap((round) => Object.keys(round.mainThreadCores)))];
  return {
    seconds,
    cores: Object.fromEntries(groups.map((group) => [group, weighted((round) => round.cores[group] ?? 0)])),
    mainThreadCores: Object.fromEntries(followed.map((group) => [group, weighted((round) => round.mainThreadCores[group] ?? 0)])),
    machineCores: weighted((round) => round.machineCores),
    others: [...others.values()].sort((a, b) => b.cores - a.cores),
  };
}
