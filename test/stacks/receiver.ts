import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Received {
  id: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Whether `standardwebhooks` verified it with the receiver's secrets (any of them). */
  verified: boolean;
  type: string | undefined;
}

/** What the receiver answers a request with (a body given as bytes goes out as they are); `hold` keeps it waiting until released (or forever). */
export type Answer = { status: number; body?: string | Buffer; hold?: Promise<void>; location?: string };

/**
 * A seller's endpoint: a real HTTP server that checks every request with the `standardwebhooks`
 * package, as a seller's code would, and answers as the test tells it. It can go down and come
 * back on the same port.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  secrets: string[] = [];
  answer: (request: Received) => Answer = () => ({ status: 204 });
  private server: Server | null = null;
  private port = 0;
  private waiters = new Set<() => void>();

  get url(): string {
    return `http://127.0.0.1:${this.port}/webhooks`;
  }

  async start(): Promise<this> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => void this.handle(request.headers, Buffer.concat(chunks).toString("utf8"), response));
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Stops answering: connections are refused until `start()` listens again on the same port. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Resolves once `count` requests matching `which` have arrived. */
  async waitFor(count: number, which: (request: Received) => boolean = () => true, timeoutMs = 15_000): Promise<Received[]> {
    const matching = () => this.received.filter(which);
    if (matching().length >= count) return matching();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`the receiver got ${matching().length} of ${count} requests in ${timeoutMs} ms`));
      }, timeoutMs);
      const check = () => {
        if (matching().length < count) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(matching());
      };
      this.waiters.add(check);
    });
  }

  private async handle(headers: IncomingHttpHeaders, body: string, response: ServerResponse): Promise<void> {
    const signed = { "webhook-id": String(headers["webhook-id"]), "webhook-timestamp": String(headers["webhook-timestamp"]), "webhook-signature": String(headers["webhook-signature"]) };
    const verified = this.secrets.some((secret) => {
      try {
        // As Polar's documentation says to: standardwebhooks takes the base64 of the whole secret.
        new Webhook(Buffer.from(secret, "utf8").toString("base64")).verify(body, signed);
        return true;
      } catch {
        return false;
      }
    });
    let type: string | undefined;
    try {
      type = (JSON.parse(body) as { type?: string }).type;
    } catch {
      type = undefined;
    }
    const request: Received = { id: signed["webhook-id"], headers, body, verified, type };
    this.received.push(request);
    for (const check of this.waiters) check();
    const answer = this.answer(request);
    await answer.hold;
    response.writeHead(answer.status, { "content-type": "text/plain", ...(answer.location ? { location: answer.location } : {}) }).end(answer.body ?? "");
  }
}
