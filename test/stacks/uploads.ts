import { createHash } from "node:crypto";
import { expect } from "vitest";
import { PUBLIC_URL } from "./auth.js";
import type { BillingStack } from "./billing.js";

export const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("base64");

/** Splits bytes into parts as an uploader declares them. */
export function partsOf(bytes: Buffer, partSize: number) {
  const parts = [];
  for (let start = 0, number = 1; start < bytes.length; start += partSize, number++) {
    const chunk = bytes.subarray(start, start + partSize);
    parts.push({ number, chunkStart: start, chunkEnd: start + chunk.length - 1, checksumSha256Base64: sha256(chunk), chunk });
  }
  return parts;
}

/** Sends each part to its URL, as a browser would: the URL's grant is the only credential. */
export async function uploadParts(through: BillingStack, upload: { parts: { number: number; url: string; headers?: Record<string, string> | undefined }[] }, bytes: ReturnType<typeof partsOf>) {
  const completed = [];
  for (const part of upload.parts) {
    const chunk = bytes.find((candidate) => candidate.number === part.number)?.chunk ?? Buffer.alloc(0);
    // The site's public address stands for the test's gateway; a bucket's URL is used as it is.
    const url = part.url.startsWith(PUBLIC_URL) ? `${through.gateway.url}${new URL(part.url).pathname}` : part.url;
    const response = await fetch(url, { method: "PUT", body: chunk, headers: { "content-type": "application/octet-stream", ...part.headers } });
    expect(response.status).toBe(200);
    completed.push({ number: part.number, checksumEtag: response.headers.get("etag") ?? "", checksumSha256Base64: sha256(chunk) });
  }
  return completed;
}
