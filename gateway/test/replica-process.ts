/**
 * A stand-in service replica in a process of its own, so that a test can kill it: it answers every
 * request with its name and what it was sent, and prints its URL once it listens.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const name = process.env.REPLICA_NAME ?? "replica";
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ replica: name, method: req.method, body: Buffer.concat(chunks).toString() }));
  });
});
server.listen(0, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
