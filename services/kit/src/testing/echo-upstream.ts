import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { IDENTITY_HEADER } from "@tollgate/proto";
import { identityVerifier } from "../http/identity.js";

/** What an upstream saw of a request the gateway forwarded. */
export interface Seen {
  upstream: string;
  method: string;
  url: string;
  /** The verified identity claims, or null when the token was missing or invalid. */
  identity: unknown;
  /** The client's address the token vouches for, or null. */
  clientAddress: string | null;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A real HTTP peer standing in for a service behind the gateway: it answers with what it received. */
export async function startEchoUpstream(name: string, verifyKey: string): Promise<{ url: string; server: Server }> {
  const verifier = identityVerifier([verifyKey]);
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const token = req.headers[IDENTITY_HEADER];
      const verified = typeof token === "string" ? verifier.verify(token) : null;
      const seen: Seen = {
        upstream: name,
        method: req.method ?? "",
        url: req.url ?? "",
        identity: verified?.claims ?? null,
        clientAddress: verified?.clientAddress ?? null,
        headers: req.headers,
        body,
      };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(seen));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
