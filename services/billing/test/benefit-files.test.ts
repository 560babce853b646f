import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { createPolar } from "polar-sdk-1/2026-10";
import { PUBLIC_URL } from "../../../test/stacks/auth.js";
import { cardToken, useShop } from "../../../test/stacks/purchases.js";
import { followDownload, uploadedFile } from "../../../test/stacks/uploads.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";
import { loadConfig } from "@tollgate/kit";
import { billingEnv } from "../src/config.js";
import { downloadLinks } from "../src/customer-portal/downloadables.js";

let stack: BillingStack;
let shop: Seller;
let customerSide: Polar;

useShop((opened) => ({ stack, shop, customerSide } = opened));

const polarOf = (accessToken: string) => createPolar({ accessToken, baseUrl: stack.gateway.url });
const digest = (bytes: Buffer | ArrayBuffer) => createHash("sha256").update(Buffer.from(bytes as ArrayBuffer)).digest("hex");

/** A downloadables benefit of the seller's with the files given (uploaded), sold as a one-time product at 700. */
async function downloadablesForSale(seller: Seller, files: { name: string; bytes: Buffer }[], archived: number[] = []) {
  const ids: string[] = [];
  for (const file of files) ids.push((await uploadedFile(stack, seller, "downloadable", file.name, "application/octet-stream", file.bytes)).id);
  const benefit = await seller.polar.benefits.create({ type: "downloadables", description: "The downloads", properties: { files: ids, archived: Object.fromEntries(archived.map((index) => [ids[index] ?? "", true])) } });
  const product = await seller.polar.products.create({ name: `Downloads ${Date.now()}`, prices: [{ amountType: "fixed", priceAmount: 700, priceCurrency: "usd" }] });
  await seller.polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [benefit.id] } });
  return { ids, benefit, product };
}

/** Buys the product as `email` with a card; the customer's portal, through SDK 1.x, and their order. */
async function buy(seller: Seller, productId: string, email: string) {
  const checkout = await seller.polar.checkouts.create({ products: [productId] });
  await customerSide.checkouts.clientConfirm({
    clientSecret: checkout.clientSecret,
    checkoutConfirmStripe: { customerEmail: email, customerBillingAddress: { country: "DK" }, confirmationTokenId: await cardToken(stack, "4242424242424242") },
  });
  await expect.poll(async () => (await seller.polar.checkouts.get({ id: checkout.id })).status, { timeout: 10_000 }).toBe("succeeded");
  const customerId = (await seller.polar.checkouts.get({ id: checkout.id })).customerId ?? "";
  const { token } = await seller.polar.customerSessions.create({ customerId });
  const [order] = (await seller.polar.orders.list({ checkoutId: checkout.id })).result.items;
  return { customerId, portal: polarOf(token), orderId: order?.id ?? "" };
}

/** The customer's download links, by file id. */
async function linksOf(portal: ReturnType<typeof polarOf>): Promise<Map<string, string>> {
  return new Map((await portal.customerPortal.downloadables.list()).items.map((item) => [item.file.id, item.file.download.url]));
}

/** Downloads through the link and checks the bytes are the file's. */
async function download(link: string | undefined, bytes: Buffer) {
  const { file } = await followDownload(stack, link ?? "");
  expect(file.status).toBe(200);
  expect(digest(await file.arrayBuffer())).toBe(digest(bytes));
}

const statusOf = async (link: string | undefined) => (await fetch((link ?? "").replace(PUBLIC_URL, stack.gateway.url), { redirect: "manual" })).status;

describe("a downloadables benefit's files", () => {
  it("show the seller how often, and by how many customers, each was downloaded through the portal's links", async () => {
    const guide = randomBytes(40_000);
    const sample = randomBytes(3_000);
    const { ids, benefit, product } = await downloadablesForSale(shop, [{ name: "guide.pdf", bytes: guide }, { name: "sample.wav", bytes: sample }, { name: "draft.txt", bytes: randomBytes(10) }], [2]);
    const [guideId = "", sampleId = ""] = ids;
    const alice = await buy(shop, product.id, "alice-downloads@example.com");
    const bob = await buy(shop, product.id, "bob-downloads@example.com");

    const seller = polarOf(shop.token);
    expect((await seller.benefits.files(benefit.id)).items.map((file) => [file.name, file.downloads, file.downloaders])).toEqual([["guide.pdf", 0, 0], ["sample.wav", 0, 0]]);

    const alices = await linksOf(alice.portal);
    // The archived file is not handed to new buyers.
    expect([...alices.keys()]).toEqual([guideId, sampleId]);
    expect(new URL(alices.get(guideId) ?? "").pathname).toMatch(/^\/v1\/customer-portal\/downloadables\/[\w-]+\.[\w-]+$/);
    await download(alices.get(guideId), guide);
    await download(alices.get(guideId), guide);
    await download(alices.get(sampleId), sample);
    await download((await linksOf(bob.portal)).get(guideId), guide);

    const listed = await seller.benefits.files(benefit.id);
    // The archived file is not handed out any more, so it is not listed; the others in the benefit's order.
    expect(listed.pagination).toEqual({ total_count: 2, max_page: 1 });
    expect(listed.items).toMatchObject([
      { id: guideId, name: "guide.pdf", service: "downloadable", size: guide.length, is_uploaded: true, organization_id: shop.organizationId, downloads: 3, downloaders: 2 },
      { id: sampleId, name: "sample.wav", size: sample.length, downloads: 1, downloaders: 1 },
    ]);
    const second = await seller.benefits.files(benefit.id, { page: 2, limit: 1 });
    expect(second).toMatchObject({ items: [{ id: sampleId, downloads: 1 }], pagination: { total_count: 2, max_page: 2 } });
  });

  it("are counted only through a link Tollgate signed, still valid, for a grant still live", async () => {
    const notes = randomBytes(2_000);
    const { ids, benefit, product } = await downloadablesForSale(shop, [{ name: "notes.txt", bytes: notes }]);
    const [notesId = ""] = ids;
    const carol = await buy(shop, product.id, "carol-downloads@example.com");
    const link = (await linksOf(carol.portal)).get(notesId) ?? "";

    // The signature's first character changed is a link nobody signed (its last carries unused base64 bits).
    const signatureAt = link.lastIndexOf(".") + 1;
    expect(await statusOf(link.slice(0, signatureAt) + (link[signatureAt] === "A" ? "B" : "A") + link.slice(signatureAt + 1))).toBe(403);
    expect(await statusOf(`${PUBLIC_URL}/v1/customer-portal/downloadables/not-a-link`)).toBe(403);
    // Signed with the site's own key, for this very grant, but past its hour.
    const granted = JSON.parse(Buffer.from(link.slice(link.lastIndexOf("/") + 1, signatureAt - 1), "base64url").toString()) as { customer: string; grant: string; benefit: string; file: string };
    const expired = downloadLinks(stack.billing.context.config.FILE_URL_SECRET).sign({ ...granted, expires: Math.floor(Date.now() / 1000) - 1 });
    expect(await statusOf(`${PUBLIC_URL}/v1/customer-portal/downloadables/${expired}`)).toBe(403);
    expect((await polarOf(shop.token).benefits.files(benefit.id)).items).toMatchObject([{ downloads: 0, downloaders: 0 }]);

    await download(link, notes);
    await shop.polar.refunds.create({ orderId: carol.orderId, reason: "customer_request", amount: 700, revokeBenefits: true });
    expect(await statusOf(link)).toBe(404);
    expect((await carol.portal.customerPortal.downloadables.list()).items).toEqual([]);
    expect((await polarOf(shop.token).benefits.files(benefit.id)).items).toMatchObject([{ downloads: 1, downloaders: 1 }]);
  });

  it("are counted whichever the store: billing signs its download links with FILE_URL_SECRET with a bucket too, and will not start without it", () => {
    expect(() => loadConfig(billingEnv, { FILE_STORAGE: "s3", S3_BUCKET: "files" })).toThrow(/FILE_URL_SECRET: expected a secret of at least 32 characters/);
    expect(loadConfig(billingEnv, { FILE_STORAGE: "s3", S3_BUCKET: "files", FILE_URL_SECRET: "k".repeat(32) }).FILE_URL_SECRET).toBe("k".repeat(32));
  });

  it("are another seller's to see only when the benefit is theirs, and only of a downloadables benefit", async () => {
    const { benefit } = await downloadablesForSale(shop, [{ name: "theirs.bin", bytes: randomBytes(100) }]);
    const other = await stack.seller();
    await expect(polarOf(other.token).benefits.files(benefit.id)).rejects.toMatchObject({ statusCode: 404 });
    await expect(polarOf(shop.token).benefits.files("no-such-benefit")).rejects.toMatchObject({ statusCode: 404 });
    const note = await shop.polar.benefits.create({ type: "custom", description: "A note", properties: { note: "Hello" } });
    await expect(polarOf(shop.token).benefits.files(note.id)).rejects.toMatchObject({ statusCode: 404 });
    // Reading benefits is enough.
    const issued = await shop.owner.fetch(`${stack.gateway.url}/v1/organization-access-tokens/`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: PUBLIC_URL },
      body: JSON.stringify({ organization_id: shop.organizationId, comment: "download statistics", scopes: ["benefits:read"] }),
    });
    const { token } = (await issued.json()) as { token: string };
    expect((await polarOf(token).benefits.files(benefit.id)).items.map((file) => file.name)).toEqual(["theirs.bin"]);
  });
});
