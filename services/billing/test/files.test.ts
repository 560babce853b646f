import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Polar } from "@polar-sh/sdk";
import { cardToken } from "../../../test/stacks/purchases.js";
import { createPolar } from "polar-sdk-1/2026-10";
import { startBucket, type Bucket } from "../../../test/stacks/bucket.js";
import { followDownload, partsOf, sha256, uploadParts } from "../../../test/stacks/uploads.js";
import { startBillingStack, type BillingStack, type Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;

beforeAll(async () => {
  stack = await startBillingStack({ FILE_MAX_SIZE: "4mb" });
  shop = await stack.seller();
});

afterAll(async () => {
  await stack?.stop();
});

describe("files", () => {
  it("are uploaded in parts to signed URLs, checked, and listed once uploaded", async () => {
    const bytes = randomBytes(2_500_000);
    const parts = partsOf(bytes, 1_000_000);
    const created = await shop.polar.files.create({
      service: "downloadable",
      name: "manual.pdf",
      mimeType: "application/pdf",
      size: bytes.length,
      checksumSha256Base64: sha256(bytes),
      upload: { parts: parts.map(({ chunk: _chunk, ...part }) => part) },
    });
    expect(created).toMatchObject({ name: "manual.pdf", isUploaded: false, service: "downloadable", size: 2_500_000, sizeReadable: "2.5 MB", organizationId: shop.organizationId });
    expect(created.upload.parts).toHaveLength(3);
    expect((await shop.polar.files.list({})).result.items).toEqual([]);

    const completed = await uploadParts(stack, created.upload, parts);
    const uploaded = await shop.polar.files.uploaded({ id: created.id, fileUploadCompleted: { id: created.upload.id, path: created.upload.path, parts: completed } });
    expect(uploaded).toMatchObject({ id: created.id, isUploaded: true, checksumSha256Base64: sha256(bytes), checksumSha256Hex: createHash("sha256").update(bytes).digest("hex") });
    expect((await shop.polar.files.list({})).result.items.map((file) => file.id)).toEqual([created.id]);

    const renamed = await shop.polar.files.update({ id: created.id, filePatch: { name: "handbook.pdf", version: "2" } });
    expect(renamed).toMatchObject({ name: "handbook.pdf", version: "2" });

    // A downloadable benefit hands out uploaded files of the seller's.
    const benefit = await shop.polar.benefits.create({ type: "downloadables", description: "The handbook", properties: { files: [created.id] } });
    expect(benefit.properties).toMatchObject({ files: [created.id], archived: {} });
  });

  it("refuses a part of the wrong size or checksum, an expired or forged URL, and a whole that does not match", async () => {
    const bytes = randomBytes(300_000);
    const parts = partsOf(bytes, 200_000);
    const created = await shop.polar.files.create({
      service: "downloadable",
      name: "data.bin",
      mimeType: "application/octet-stream",
      size: bytes.length,
      checksumSha256Base64: sha256(randomBytes(8)),
      upload: { parts: parts.map(({ chunk: _chunk, ...part }) => part) },
    });
    const [first] = created.upload.parts;
    const path = new URL(first?.url ?? "").pathname;
    const wrong = await fetch(`${stack.gateway.url}${path}`, { method: "PUT", body: randomBytes(200_000) });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ error: "BadRequest", detail: "part 1 does not match its declared SHA-256" });
    const short = await fetch(`${stack.gateway.url}${path}`, { method: "PUT", body: bytes.subarray(0, 10) });
    expect(short.status).toBe(400);
    const forged = await fetch(`${stack.gateway.url}${path.slice(0, -3)}abc`, { method: "PUT", body: bytes.subarray(0, 200_000) });
    expect(forged.status).toBe(403);

    const completed = await uploadParts(stack, created.upload, parts);
    const response = await fetch(`${stack.gateway.url}/v1/files/${created.id}/uploaded`, {
      method: "POST",
      headers: { authorization: `Bearer ${shop.token}`, "content-type": "application/json" },
      body: JSON.stringify({ id: created.id, path: created.upload.path, parts: completed.map((part) => ({ number: part.number, checksum_etag: part.checksumEtag, checksum_sha256_base64: part.checksumSha256Base64 })) }),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ detail: [{ loc: ["body", "parts"], msg: "the file does not match its declared SHA-256" }] });
  });

  it("keeps sizes within the limit and parts covering the file", async () => {
    const tooBig = fetch(`${stack.gateway.url}/v1/files/`, {
      method: "POST",
      headers: { authorization: `Bearer ${shop.token}`, "content-type": "application/json" },
      body: JSON.stringify({ service: "downloadable", name: "huge", mime_type: "application/zip", size: 5 * 1024 * 1024, upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 5 * 1024 * 1024 - 1 }] } }),
    });
    expect(await (await tooBig).json()).toMatchObject({ detail: [{ loc: ["body", "size"] }] });
    const gap = await fetch(`${stack.gateway.url}/v1/files/`, {
      method: "POST",
      headers: { authorization: `Bearer ${shop.token}`, "content-type": "application/json" },
      body: JSON.stringify({ service: "downloadable", name: "gappy", mime_type: "application/zip", size: 100, upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 49 }, { number: 2, chunk_start: 60, chunk_end: 99 }] } }),
    });
    expect(await gap.json()).toMatchObject({ detail: [{ loc: ["body", "upload", "parts"], msg: "Part 2 must start at byte 50" }] });
  });

  it("serves product media publicly, and a product shows it", async () => {
    const image = randomBytes(5_000);
    const parts = partsOf(image, 5_000);
    const created = await shop.polar.files.create({ service: "product_media", name: "cover.png", mimeType: "image/png", size: image.length, upload: { parts: parts.map(({ chunk: _chunk, ...part }) => part) } });
    const completed = await uploadParts(stack, created.upload, parts);
    const uploaded = await shop.polar.files.uploaded({ id: created.id, fileUploadCompleted: { id: created.upload.id, path: created.upload.path, parts: completed } });
    expect("publicUrl" in uploaded && uploaded.publicUrl).toMatch(new RegExp(`/v1/files/public/${created.id}$`));
    const served = await fetch(`${stack.gateway.url}/v1/files/public/${created.id}`);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);

    const product = await shop.polar.products.create({ name: "Pictured", prices: [{ amountType: "free" }], medias: [created.id] });
    expect(product.medias.map((media) => media.id)).toEqual([created.id]);
    const notImage = await fetch(`${stack.gateway.url}/v1/products/`, {
      method: "POST",
      headers: { authorization: `Bearer ${shop.token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Wrong media", prices: [{ amount_type: "free" }], medias: ["no-such-file"] }),
    });
    expect(await notImage.json()).toMatchObject({ detail: [{ loc: ["body", "medias", 0] }] });

    await shop.polar.files.delete({ id: created.id });
    expect((await fetch(`${stack.gateway.url}/v1/files/public/${created.id}`)).status).toBe(404);
  });
});

describe("files in an S3-compatible bucket", () => {
  let bucket: Bucket;
  let bucketStack: BillingStack;
  let bucketShop: Seller;
  const MiB = 1024 * 1024;

  beforeAll(async () => {
    bucket = await startBucket();
    bucketStack = await startBillingStack(bucket.env);
    bucketShop = await bucketStack.seller();
  });

  afterAll(async () => {
    await bucketStack?.stop();
    await bucket?.stop();
  });

  const exists = async (key: string) => (await bucket.head(key)) !== null;

  it("are uploaded straight to the bucket in parts, checked, served and deleted", async () => {
    const image = randomBytes(5 * MiB + 1234);
    const parts = partsOf(image, 5 * MiB);
    const created = await bucketShop.polar.files.create({ service: "product_media", name: "poster.png", mimeType: "image/png", size: image.length, checksumSha256Base64: sha256(image), upload: { parts: parts.map(({ chunk: _chunk, ...part }) => part) } });
    expect(created.upload.parts.map((part) => new URL(part.url).pathname)).toEqual([`/tollgate-files/${created.path}`, `/tollgate-files/${created.path}`].map(encodeURI));
    // The declared checksum is a header the uploader must send, so the bucket can check the bytes.
    expect(created.upload.parts[0]?.headers).toEqual({ "x-amz-checksum-sha256": parts[0]?.checksumSha256Base64 });

    const completed = await uploadParts(bucketStack, created.upload, parts);
    const uploaded = await bucketShop.polar.files.uploaded({ id: created.id, fileUploadCompleted: { id: created.upload.id, path: created.upload.path, parts: completed } });
    expect(uploaded).toMatchObject({ isUploaded: true, checksumSha256Base64: sha256(image), size: image.length });
    expect(await exists(created.path)).toBe(true);

    const served = await fetch(`${bucketStack.gateway.url}/v1/files/public/${created.id}`);
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);

    await bucketShop.polar.files.delete({ id: created.id });
    expect(await exists(created.path)).toBe(false);
  });

  it("sends a buyer to a pre-signed bucket URL for a downloadable they were granted, counting the download", async () => {
    const bytes = randomBytes(5 * MiB + 10);
    const parts = partsOf(bytes, 5 * MiB + 10);
    const created = await bucketShop.polar.files.create({ service: "downloadable", name: "album.zip", mimeType: "application/zip", size: bytes.length, checksumSha256Base64: sha256(bytes), upload: { parts: parts.map(({ chunk: _chunk, ...part }) => part) } });
    await bucketShop.polar.files.uploaded({ id: created.id, fileUploadCompleted: { id: created.upload.id, path: created.upload.path, parts: await uploadParts(bucketStack, created.upload, parts) } });
    const benefit = await bucketShop.polar.benefits.create({ type: "downloadables", description: "The album", properties: { files: [created.id] } });
    const product = await bucketShop.polar.products.create({ name: "Album", prices: [{ amountType: "fixed", priceAmount: 900, priceCurrency: "usd" }] });
    await bucketShop.polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [benefit.id] } });
    const buyerSide = new Polar({ serverURL: bucketStack.gateway.url });
    const checkout = await bucketShop.polar.checkouts.create({ products: [product.id] });
    await buyerSide.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: { customerEmail: "listener@example.com", customerBillingAddress: { country: "FI" }, confirmationTokenId: await cardToken(bucketStack, "4242424242424242") } });
    await expect.poll(async () => (await bucketShop.polar.checkouts.get({ id: checkout.id })).status, { timeout: 10_000 }).toBe("succeeded");
    const { token } = await bucketShop.polar.customerSessions.create({ customerId: (await bucketShop.polar.checkouts.get({ id: checkout.id })).customerId ?? "" });
    const [downloadable] = (await buyerSide.customerPortal.downloadables.list({ customerSession: token }, {})).result.items;
    // The portal's link comes back to Tollgate, which counts the download and redirects to the bucket.
    const { location, file: fetched } = await followDownload(bucketStack, downloadable?.file.download.url ?? "http://invalid");
    const link = new URL(location);
    expect(link.pathname).toBe(`/tollgate-files/${created.path}`);
    expect(link.searchParams.get("X-Amz-Signature")).toBeTruthy();
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);
    const seller = createPolar({ accessToken: bucketShop.token, baseUrl: bucketStack.gateway.url });
    expect((await seller.benefits.files(benefit.id)).items).toMatchObject([{ id: created.id, name: "album.zip", downloads: 1, downloaders: 1 }]);

    // The order's receipt, which Tollgate makes itself, is kept in the bucket too and handed out pre-signed.
    const [order] = (await bucketShop.polar.orders.list({ checkoutId: checkout.id })).result.items;
    const receipt = new URL((await seller.orders.receipt(order?.id ?? "")).url);
    expect(receipt.searchParams.get("X-Amz-Signature")).toBeTruthy();
    const pdf = await fetch(receipt);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("refuses parts too small for the bucket, and removes a whole that does not match", async () => {
    const small = await fetch(`${bucketStack.gateway.url}/v1/files/`, {
      method: "POST",
      headers: { authorization: `Bearer ${bucketShop.token}`, "content-type": "application/json" },
      body: JSON.stringify({ service: "downloadable", name: "bits", mime_type: "application/zip", size: 100, upload: { parts: [{ number: 1, chunk_start: 0, chunk_end: 49 }, { number: 2, chunk_start: 50, chunk_end: 99 }] } }),
    });
    expect(await small.json()).toMatchObject({ detail: [{ loc: ["body", "upload", "parts"], msg: `Part 1 is smaller than the ${5 * MiB} bytes every part but the last must have` }] });

    const bytes = randomBytes(1000);
    const parts = partsOf(bytes, 1000);
    const created = await bucketShop.polar.files.create({ service: "downloadable", name: "notes.txt", mimeType: "text/plain", size: bytes.length, checksumSha256Base64: sha256(randomBytes(8)), upload: { parts: parts.map(({ chunk: _chunk, ...part }) => part) } });
    const completed = await uploadParts(bucketStack, created.upload, parts);
    const response = await fetch(`${bucketStack.gateway.url}/v1/files/${created.id}/uploaded`, {
      method: "POST",
      headers: { authorization: `Bearer ${bucketShop.token}`, "content-type": "application/json" },
      body: JSON.stringify({ id: created.id, path: created.upload.path, parts: completed.map((part) => ({ number: part.number, checksum_etag: part.checksumEtag, checksum_sha256_base64: part.checksumSha256Base64 })) }),
    });
    expect(await response.json()).toMatchObject({ detail: [{ loc: ["body", "parts"], msg: "the file does not match its declared SHA-256" }] });
    expect(await exists(created.path)).toBe(false);
  });
});
