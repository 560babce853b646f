import { createHash } from "node:crypto";
import { expect } from "vitest";
import { PUBLIC_URL } from "./auth.js";
import type { BillingStack, Seller } from "./billing.js";

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

/** Uploads `bytes` as one of the seller's files, of the kind and type given, and completes it. */
export async function uploadedFile(through: BillingStack, seller: Seller, service: "downloadable" | "product_media", name: string, mimeType: string, bytes: Buffer) {
  const parts = partsOf(bytes, bytes.length);
  const created = await seller.polar.files.create({ service, name, mimeType, size: bytes.length, checksumSha256Base64: sha256(bytes), upload: { parts: parts.map(({ chunk: _chunk, ...part }) => part) } });
  const completed = await uploadParts(through, created.upload, parts);
  return seller.polar.files.uploaded({ id: created.id, fileUploadCompleted: { id: created.upload.id, path: created.upload.path, parts: completed } });
}

/**
 * Follows a customer portal download link as a browser would: Tollgate counts the download and
 * redirects to the store's own address (its own signed route, or a bucket's pre-signed URL), which
 * serves the file. The site's public address stands for the test's gateway.
 */
export async function followDownload(through: BillingStack, link: string): Promise<{ location: string; file: Response }> {
  const reached = (url: string) => (url.startsWith(PUBLIC_URL) ? `${through.gateway.url}${new URL(url).pathname}${new URL(url).search}` : url);
  const redirect = await fetch(reached(link), { redirect: "manual" });
  expect(redirect.status, await redirect.clone().text()).toBe(302);
  const location = redirect.headers.get("location") ?? "";
  return { location, file: await fetch(reached(location)) };
}
