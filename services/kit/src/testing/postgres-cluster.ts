import { execFile } from "node:child_process";
import { chownSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "./servers.js";

const run = promisify(execFile);

/**
 * A Postgres cluster of one's own (initdb in a temporary directory, a free port, trust on loopback):
 * for what stops Postgres on purpose, which must never be the machine's shared server. Uses Debian's
 * binaries (`POSTGRES_BIN_DIR`, default /usr/lib/postgresql/15/bin); Postgres refuses to run as root,
 * so as root they run as the `postgres` user, which owns the directory.
 */
export class PrivatePostgresCluster {
  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly maxConnections: number,
  ) {}

  /** Makes the cluster and starts it; resolves once it accepts connections. */
  static async start(options: { maxConnections?: number } = {}): Promise<PrivatePostgresCluster> {
    const dir = mkdtempSync(path.join(tmpdir(), "tollgate-private-postgres-"));
    const cluster = new PrivatePostgresCluster(await freePort(), dir, options.maxConnections ?? 200);
    try {
      if (asRoot()) {
        const { uid, gid } = postgresUser();
        chownSync(dir, uid, gid);
      }
      await cluster.pg("initdb", ["-D", cluster.data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"]);
      await cluster.resume();
      return cluster;
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
  }

  /** A URL for `database` on this cluster. */
  url(database = "postgres"): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** The postmaster's pid, while it runs. */
  get pid(): number | undefined {
    try {
      return Number(readFileSync(path.join(this.data, "postmaster.pid"), "utf8").split("\n")[0]) || undefined;
    } catch {
      return undefined;
    }
  }

  /** Stops it at once, as a crash would (`-m immediate`: open transactions are lost, committed ones recovered at the next start). */
  async halt(): Promise<void> {
    await this.pg("pg_ctl", ["-D", this.data, "-m", "immediate", "-w", "stop"]);
  }

  /** Starts it again on the same port and data; resolves once it accepts connections. */
  async resume(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c max_connections=${this.maxConnections}`;
    await this.pg("pg_ctl", ["-D", this.data, "-l", path.join(this.dir, "postgres.log"), "-o", options, "-w", "-t", "60", "start"]);
  }

  /** Stops it, stays down for `downMs`, then starts it again. */
  async restart(downMs = 0): Promise<void> {
    await this.halt();
    await new Promise((resolve) => setTimeout(resolve, downMs));
    await this.resume();
  }

  /** Stops it and removes its directory. */
  async stop(): Promise<void> {
    await this.pg("pg_ctl", ["-D", this.data, "-m", "fast", "-w", "stop"]).catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }

  private get data(): string {
    return path.join(this.dir, "data");
  }

  private async pg(binary: string, args: string[]): Promise<void> {
    const file = path.join(process.env.POSTGRES_BIN_DIR ?? "/usr/lib/postgresql/15/bin", binary);
    const [command, commandArgs] = asRoot() ? ["runuser", ["-u", "postgres", "--", file, ...args]] : [file, args];
    try {
      // In the cluster's directory: the postgres user may not be able to enter the caller's.
      await run(command, commandArgs, { cwd: this.dir });
    } catch (error) {
      const output = error as { stdout?: string; stderr?: string };
      throw new Error(`${binary} ${args.join(" ")} failed: ${output.stderr ?? ""}${output.stdout ?? ""}`, { cause: error });
    }
  }
}

const asRoot = () => process.getuid?.() === 0;

function postgresUser(): { uid: number; gid: number } {
  const entry = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .map((line) => line.split(":"))
    .find((fields) => fields[0] === "postgres");
  if (!entry) throw new Error("Postgres does not run as root, and there is no postgres user to run it as");
  return { uid: Number(entry[2]), gid: Number(entry[3]) };
}
