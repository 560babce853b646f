import type { ChildProcess } from "node:child_process";
import { connect, createServer } from "node:net";

/** What the private servers (NATS, Redis, Postgres) of the tests and benches share: their process, their port. */

/** A server's process, and when it exits. */
export class ServerProcess {
  readonly exited: Promise<void>;

  constructor(readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves once the loopback `port` accepts connections; rejects as soon as the process has exited. */
  async accepting(port: number, what: string): Promise<void> {
    while (!(await accepts(port))) {
      if (!this.running) throw new Error(`${what} exited at start`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** SIGTERM; resolves once it has exited. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.child.kill("SIGTERM");
    await this.exited;
  }
}

/** A port nothing listens on right now, chosen by the OS, for a server that cannot pick its own. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}
