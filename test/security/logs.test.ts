import { randomBytes } from "node:crypto";
import { Polar } from "@polar-sh/sdk";
import { expect, it } from "vitest";
import { captureLogs } from "@tollgate/kit/testing";
import { linkTo, startSmtpCatcher } from "../stacks/smtp-catcher.js";
import { PUBLIC_URL, viaGateway } from "../stacks/auth.js";
import { cardToken } from "../stacks/purchases.js";
import { followDownload, partsOf, sha256, uploadParts } from "../stacks/uploads.js";
import { WebhookReceiver } from "../stacks/receiver.js";
import { startDispatcherStack } from "../stacks/dispatcher.js";

/**
 * #5: a whole flow — sign-up, password reset, verification, a sale through the hosted checkout and a
 * checkout link, the customer portal with its keys and downloads, a webhook — with every process
 * logging everything (trace), then the logs searched for every secret the flow made.
 */
it("#5 the logs of a whole flow hold none of the secrets it made", { timeout: 60_000 }, async () => {
  const smtp = await startSmtpCatcher();
  const logs = captureLogs();
  const stack = await startDispatcherStack({}, { SMTP_URL: smtp.url });
  const receiver = await new WebhookReceiver().start();
  const made: Record<string, string> = {};
  const page = (path: string) => fetch(`${stack.gateway.url}${path}`, { headers: { accept: "text/html" }, redirect: "manual" });
  try {
    const slug = `logged-${Date.now()}`;
    const shop = await stack.seller({ slug });
    made.accessToken = shop.token;
    made.sessionToken = (await shop.owner.jar.getCookies(stack.gateway.url)).find((cookie) => cookie.key === "better-auth.session_token")?.value.split(".")[0] ?? "";
    made.password = "correct horse battery staple";

    // A password reset, from the mailed link through the reset page.
    await stack.browser().client.requestPasswordReset({ email: shop.owner.email, redirectTo: "/reset" });
    const resetLink = linkTo(await smtp.next(shop.owner.email), "/api/auth/reset-password/");
    made.resetToken = new URL(resetLink).pathname.split("/").pop() ?? "";
    const toResetPage = await fetch(viaGateway(stack, resetLink), { redirect: "manual" });
    expect(toResetPage.status).toBe(302);
    await page(new URL(toResetPage.headers.get("location") ?? "", PUBLIC_URL).pathname + new URL(toResetPage.headers.get("location") ?? "", PUBLIC_URL).search);
    made.newPassword = "a brand new password";
    expect((await stack.browser().client.resetPassword({ newPassword: made.newPassword, token: made.resetToken })).data).toEqual({ status: true });

    // Address verification.
    const reader = stack.browser();
    await reader.client.signUp.email({ name: "Reader", email: "logged.reader@example.com", password: made.password });
    await reader.client.sendVerificationEmail({ email: "logged.reader@example.com", callbackURL: "/verified" });
    const verifyLink = linkTo(await smtp.next("logged.reader@example.com"), "/api/auth/verify-email");
    made.verificationToken = new URL(verifyLink).searchParams.get("token") ?? "";
    await reader.fetch(viaGateway(stack, verifyLink), { redirect: "manual" });

    // A product granting a license key and a download, sold through the hosted checkout.
    const bytes = randomBytes(1000);
    const parts = partsOf(bytes, 1000);
    const file = await shop.polar.files.create({ service: "downloadable", name: "notes.txt", mimeType: "text/plain", size: bytes.length, checksumSha256Base64: sha256(bytes), upload: { parts: parts.map(({ chunk: _chunk, ...part }) => part) } });
    made.uploadGrant = file.upload.parts[0]?.url.split("/").pop() ?? "";
    const completed = await uploadParts(stack, file.upload, parts);
    await shop.polar.files.uploaded({ id: file.id, fileUploadCompleted: { id: file.upload.id, path: file.upload.path, parts: completed } });
    const downloads = await shop.polar.benefits.create({ type: "downloadables", description: "Notes", properties: { files: [file.id] } });
    const keys = await shop.polar.benefits.create({ type: "license_keys", description: "Key", properties: {} });
    const product = await shop.polar.products.create({ name: "Logged product", prices: [{ amountType: "fixed", priceAmount: 900, priceCurrency: "usd" }] });
    await shop.polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [downloads.id, keys.id] } });
    const endpoint = await shop.polar.webhooks.createWebhookEndpoint({ url: receiver.url, format: "raw", events: ["order.paid"] });
    made.webhookSecret = endpoint.secret;

    const customerSide = new Polar({ serverURL: stack.gateway.url });
    const checkout = await shop.polar.checkouts.create({ products: [product.id] });
    made.checkoutSecret = checkout.clientSecret;
    await page(`/checkout/${checkout.clientSecret}`);
    await customerSide.checkouts.clientUpdate({ clientSecret: checkout.clientSecret, checkoutUpdatePublic: { customerName: "Logged Buyer" } });
    await customerSide.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { customerEmail: "logged.buyer@example.com", customerBillingAddress: { country: "DK" }, confirmationTokenId: await cardToken(stack, "4242424242424242") },
    });
    await expect.poll(async () => (await customerSide.checkouts.clientGet({ clientSecret: checkout.clientSecret })).status, { timeout: 10_000 }).toBe("succeeded");
    await page(`/checkout/${checkout.clientSecret}/confirmation`);
    await receiver.waitFor(1);

    const link = await shop.polar.checkoutLinks.create({ paymentProcessor: "stripe", products: [product.id] });
    made.checkoutLinkSecret = link.clientSecret;
    expect((await fetch(link.url.replace(PUBLIC_URL, stack.gateway.url), { redirect: "manual" })).status).toBe(303);

    // The customer portal: its link, its token, the key and the download it hands out.
    const customerId = (await customerSide.checkouts.clientGet({ clientSecret: checkout.clientSecret })).customerId ?? "";
    const session = await shop.polar.customerSessions.create({ customerId });
    made.customerSessionToken = session.token;
    await page(new URL(session.customerPortalUrl).pathname + new URL(session.customerPortalUrl).search);
    const security = { customerSession: session.token };
    const [key] = (await customerSide.customerPortal.licenseKeys.list(security, {})).result.items;
    made.licenseKey = key?.key ?? "";
    await customerSide.customerPortal.licenseKeys.validate({ key: made.licenseKey, organizationId: shop.organizationId });
    const [downloadable] = (await customerSide.customerPortal.downloadables.list(security, {})).result.items;
    const downloadUrl = downloadable?.file.download.url ?? "";
    made.downloadLink = downloadUrl.split("/").pop() ?? "";
    const followed = await followDownload(stack, downloadUrl);
    made.downloadGrant = followed.location.split("/").pop() ?? "";
    expect(followed.file.status).toBe(200);
  } finally {
    await stack.stop();
    logs.stop();
    await receiver.stop();
    await smtp.close();
  }

  const written = logs.lines.join("\n");
  // The flow was logged (so the search below means something), with the secrets in its URLs blanked.
  for (const redacted of ["/api/auth/reset-password/[redacted]", "/v1/checkouts/client/[redacted]", "/checkout/[redacted]", "customer_session_token=[redacted]", "/v1/customer-portal/downloadables/[redacted]", "/v1/files/downloads/[redacted]", "/v1/checkout-links/[redacted]/redirect"]) {
    expect(written, redacted).toContain(redacted);
  }
  for (const [name, secret] of Object.entries(made)) {
    expect(secret.length, name).toBeGreaterThan(8);
    expect(written.includes(secret), `${name} is in the logs`).toBe(false);
  }
});
