import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, ServerProcess } from "./servers.js";

/**
 * A redis-server of one's own on a free port, keeping nothing on disk (as CI's): for what takes Redis
 * down on purpose, which must never be the machine's shared server. `REDIS_SERVER_BIN` names the
 * binary (default redis-server, from PATH).
 */
export class PrivateRedisServer {
  private running: ServerProcess | null = null;

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly settings: readonly string[],
  ) {}

  /** Starts one, with redis-server's further `settings` (users, say); resolves once it accepts connections. */
  static async start(settings: readonly string[] = []): Promise<PrivateRedisServer> {
    const server = new PrivateRedisServer(await freePort(), mkdtempSync(path.join(tmpdir(), "tollgate-private-redis-")), settings);
    await server.resume();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.running?.child.pid;
  }

  /** Stops it (SIGTERM): connections are refused, and everything it held is gone, until {@link resume}. */
  async halt(): Promise<void> {
    const running = this.running;
    this.running = null;
    await running?.stop();
  }

  /** Starts it again on the same port, empty; resolves once it accepts connections. */
  async resume(): Promise<void> {
    if (this.running) return;
    const args = [...this.settings, "--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", this.dir];
    this.running = new ServerProcess(spawn(process.env.REDIS_SERVER_BIN ?? "redis-server", args, { stdio: "ignore" }));
    await this.running.accepting(this.port, "redis-server");
  }

  /** Stops it, stays down for `downMs`, then starts it again. */
  async restart(downMs = 0): Promise<void> {
    await this.halt();
    await new Promise((resolve) => setTimeout(resolve, downMs));
    await this.resume();
  }

  /** Stops it for good and removes its directory. */
  async stop(): Promise<void> {
    await this.halt();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
