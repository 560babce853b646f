import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBillingStack, type BillingStack, type Seller } from "../stacks/billing.js";
import { startBucket, type Bucket } from "../stacks/bucket.js";
import { partsOf, sha256, uploadParts } from "../stacks/uploads.js";

/**
 * With FILE_STORAGE=s3, where a seller's upload lands in the bucket is Tollgate's choice, never the
 * seller's: a name is text a seller wrote, and a key built from it could climb out of the
 * organization's prefix or land on another object.
 */

let bucket: Bucket;
let stack: BillingStack;
let shop: Seller;

beforeAll(async () => {
  bucket = await startBucket();
  stack = await startBillingStack(bucket.env);
  shop = await stack.seller();
});

afterAll(async () => {
  await stack?.stop();
  await bucket?.stop();
});

/** Uploads `bytes` under `name` as the seller's downloadable, completed. */
async function upload(name: string, bytes: Buffer) {
  const parts = partsOf(bytes, bytes.length);
  const created = await shop.polar.files.create({ service: "downloadable", name, mimeType: "text/html", size: bytes.length, checksumSha256Base64: sha256(bytes), upload: { parts: parts.map(({ chunk: _chunk, ...part }) => part) } });
  const completed = await uploadParts(stack, created.upload, parts);
  return shop.polar.files.uploaded({ id: created.id, fileUploadCompleted: { id: created.upload.id, path: created.upload.path, parts: completed } });
}

describe("round 2 #8 a file's name never becomes its place in the bucket", () => {
  it("keys an upload named ../../x.html by its organization's id and its own, keeping the name only as what it downloads as", async () => {
    const file = await upload("../../x.html", Buffer.from(`<script>alert(1)</script>${randomBytes(8).toString("hex")}`));
    const key = `${shop.organizationId}/${file.id}`;
    expect(file.path).toBe(key);
    expect(await bucket.keys()).toEqual([key]);
    expect((await bucket.head(key))?.ContentDisposition).toBe(`attachment; filename="../../x.html"; filename*=UTF-8''..%2F..%2Fx.html`);
    expect(file.name).toBe("../../x.html");
  });

  it("encodes any name the way RFC 8187 asks, quotes and brackets included", async () => {
    const file = await upload("l'été (final)*.html", Buffer.from("<p>draft</p>"));
    expect((await bucket.head(file.path))?.ContentDisposition).toBe(`attachment; filename="l'_t_ (final)*.html"; filename*=UTF-8''l%27%C3%A9t%C3%A9%20%28final%29%2A.html`);
  });
});
