import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { PUBLIC_URL } from "../../../test/stacks/auth.js";
import { useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;
let customerSide: Polar;

useShop((opened) => ({ stack, shop, customerSide } = opened));

/** Follows a link as a browser would, without going on to the page: the checkout it opened. */
async function follow(url: string) {
  const response = await fetch(url.replace(PUBLIC_URL, stack.gateway.url), { redirect: "manual" });
  expect(response.status).toBe(303);
  const location = response.headers.get("location") ?? "";
  expect(location.startsWith(`${PUBLIC_URL}/checkout/polar_c_`)).toBe(true);
  return customerSide.checkouts.clientGet({ clientSecret: location.slice(`${PUBLIC_URL}/checkout/`.length) });
}

describe("checkout links", () => {
  it("open a fresh checkout each time they are followed, with the link's settings and the buyer's prefill", async () => {
    const product = await shop.polar.products.create({ name: "Course", prices: [{ amountType: "fixed", priceAmount: 12_000, priceCurrency: "usd" }] });
    const discount = await shop.polar.discounts.create({ name: "Launch", type: "fixed", amount: 2_000, currency: "usd", duration: "once" });
    const link = await shop.polar.checkoutLinks.create({ paymentProcessor: "stripe", products: [product.id], label: "Newsletter", discountId: discount.id, requireBillingAddress: true });
    expect(link).toMatchObject({ label: "Newsletter", discountId: discount.id, requireBillingAddress: true, allowDiscountCodes: true, organizationId: shop.organizationId });
    expect(link.clientSecret).toMatch(/^polar_cl_/);
    expect(link.products.map((linked) => linked.id)).toEqual([product.id]);

    const first = await follow(link.url);
    const second = await follow(`${link.url}?customer_email=reader@example.com`);
    expect(first.id).not.toBe(second.id);
    expect(first).toMatchObject({ productId: product.id, amount: 12_000, discountAmount: 2_000, totalAmount: 10_000, requireBillingAddress: true, status: "open" });
    expect(second.customerEmail).toBe("reader@example.com");
  });

  it("are listed, changed and deleted; a deleted link leads nowhere", async () => {
    const product = await shop.polar.products.create({ name: "Guide", prices: [{ amountType: "fixed", priceAmount: 1_000, priceCurrency: "usd" }] });
    const other = await shop.polar.products.create({ name: "Guide, print", prices: [{ amountType: "fixed", priceAmount: 2_000, priceCurrency: "usd" }] });
    const link = await shop.polar.checkoutLinks.create({ paymentProcessor: "stripe", products: [product.id] });
    const changed = await shop.polar.checkoutLinks.update({ id: link.id, checkoutLinkUpdate: { label: "Both", products: [product.id, other.id] } });
    expect(changed.products.map((linked) => linked.name)).toEqual(["Guide", "Guide, print"]);
    expect((await shop.polar.checkoutLinks.list({ organizationId: shop.organizationId })).result.items.map((item) => item.id)).toContain(link.id);
    expect((await follow(link.url)).products.map((offered) => offered.id)).toEqual([product.id, other.id]);
    await shop.polar.checkoutLinks.delete({ id: link.id });
    const gone = await fetch(link.url.replace(PUBLIC_URL, stack.gateway.url), { redirect: "manual" });
    expect(gone.status).toBe(404);
    await expect(shop.polar.checkoutLinks.get({ id: link.id })).rejects.toMatchObject({ statusCode: 404 });
  });
});
