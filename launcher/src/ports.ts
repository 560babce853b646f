import { createServer, type Server } from "node:net";

function listenOnAnyPort(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({ server, port: typeof address === "object" && address ? address.port : 0 });
    });
  });
}

/**
 * `count` distinct ports nothing listens on right now, chosen by the OS, for internal services.
 * All are held open until every one is chosen, so the OS cannot hand out the same port twice, and
 * `taken` (the gateway's public port, which is not bound yet) is never among them.
 */
export async function freePorts(count: number, taken: ReadonlySet<number> = new Set()): Promise<number[]> {
  const held: Server[] = [];
  const ports: number[] = [];
  try {
    while (ports.length < count) {
      const { server, port } = await listenOnAnyPort();
      held.push(server);
      if (!taken.has(port)) ports.push(port);
    }
    return ports;
  } finally {
    await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

/** One port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const [port = 0] = await freePorts(1);
  return port;
}

/** Polls `/readyz` until it answers 200; rejects if `alive()` turns false or time runs out. */
export async function waitUntilReady(url: string, alive: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`${url} exited before it was ready`);
    const ready = await fetch(`${url}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url}/readyz did not answer 200 within ${timeoutMs / 1000} s`);
}
