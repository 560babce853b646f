/**
 * The benchmark's receiving end, in a process of its own: answers every POST with 204 and, for
 * bodies carrying `data.sent_at` (ms since the epoch), keeps how long after that it got them.
 * `GET /latencies` hands those over and forgets them. Prints its port on start.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

let latencies: number[] = [];

const server = createServer((request, response) => {
  if (request.method === "GET") {
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(latencies));
    latencies = [];
    return;
  }
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const receivedAt = Date.now();
    try {
      const sentAt = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { data?: { sent_at?: number } }).data?.sent_at;
      if (typeof sentAt === "number") latencies.push(receivedAt - sentAt);
    } catch {
      // Not JSON: autocannon's raw requests are only counted by autocannon.
    }
    response.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => console.log(`listening on ${(server.address() as AddressInfo).port}`));
