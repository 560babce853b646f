import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { ServerProcess } from "./servers.js";

/** How to run a private server beyond the defaults: a configuration file (users, say) and the environment it reads. */
export interface PrivateNatsOptions {
  /** The port to listen on; a free one the server picks when unset. */
  port?: number;
  configFile?: string;
  env?: Record<string, string>;
}

/**
 * A nats-server (with JetStream) of one's own, on a port of its own and a store in a temporary
 * directory: for what restarts NATS on purpose, or runs it with users, which must never be the
 * machine's shared server. `NATS_SERVER_BIN` names the binary (default /usr/sbin/nats-server).
 */
export class PrivateNatsServer {
  private running: ServerProcess | null = null;

  private constructor(
    readonly port: number,
    private readonly storeDir: string,
    private readonly options: PrivateNatsOptions,
  ) {}

  /** Starts one; resolves once it accepts connections. */
  static async start(options: PrivateNatsOptions = {}): Promise<PrivateNatsServer> {
    const storeDir = mkdtempSync(path.join(tmpdir(), "tollgate-private-nats-"));
    // Port -1: the server picks a free one and says which.
    const probe = spawn(natsServerBin(), serverArgs(options, options.port ?? -1, storeDir), { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...options.env } });
    // Its last lines say why, should it exit before listening (a port taken, a configuration refused).
    const said: string[] = [];
    const port = await new Promise<number>((resolve, reject) => {
      createInterface({ input: probe.stderr }).on("line", (line) => {
        said.push(line);
        const listening = /Listening for client connections on [\d.]+:(\d+)/.exec(line);
        if (listening?.[1]) resolve(Number(listening[1]));
      });
      probe.once("exit", (code) => reject(new Error(`nats-server exited at start (code ${code}):\n${said.slice(-5).join("\n")}`)));
    });
    const server = new PrivateNatsServer(port, storeDir, options);
    server.running = new ServerProcess(probe);
    await server.running.accepting(port, "nats-server");
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.running?.child.pid;
  }

  /** Stops it (SIGTERM), stays down for `downMs`, then starts it again on the same port and store; resolves once it accepts connections. */
  async restart(downMs = 0): Promise<void> {
    await this.halt();
    await new Promise((resolve) => setTimeout(resolve, downMs));
    this.running = new ServerProcess(spawn(natsServerBin(), serverArgs(this.options, this.port, this.storeDir), { stdio: "ignore", env: { ...process.env, ...this.options.env } }));
    await this.running.accepting(this.port, "nats-server");
  }

  /** Stops it and removes its store. */
  async stop(): Promise<void> {
    await this.halt();
    rmSync(this.storeDir, { recursive: true, force: true });
  }

  private async halt(): Promise<void> {
    const running = this.running;
    this.running = null;
    await running?.stop();
  }
}

const natsServerBin = () => process.env.NATS_SERVER_BIN ?? "/usr/sbin/nats-server";

const serverArgs = (options: PrivateNatsOptions, port: number, storeDir: string) => [
  ...(options.configFile ? ["-c", options.configFile] : []),
  ...["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", storeDir],
];
