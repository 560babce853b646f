import { describe, expect, it } from "vitest";
import type { Polar } from "@polar-sh/sdk";
import { cardToken, useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;
let customerSide: Polar;

useShop((opened) => ({ stack, shop, customerSide } = opened));

/** A buyer whose first card is declined and who pays with another, as the hosted page lets them. */
async function declinedThenPaid(email: string) {
  const product = await shop.polar.products.create({ name: `Guide for ${email}`, prices: [{ amountType: "fixed", priceAmount: 2100, priceCurrency: "usd" }] });
  const checkout = await shop.polar.checkouts.create({ products: [product.id] });
  const confirm = async (card: string) => {
    await customerSide.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: { customerEmail: email, customerBillingAddress: { country: "FR" }, confirmationTokenId: await cardToken(stack, card) } });
    await expect.poll(async () => (await shop.polar.checkouts.get({ id: checkout.id })).status, { timeout: 10_000 }).not.toBe("confirmed");
  };
  await confirm("4000000000009995");
  await confirm("4242424242424242");
  const [order] = (await shop.polar.orders.list({ checkoutId: checkout.id })).result.items;
  if (!order) throw new Error("no order");
  return { checkout, order };
}

describe("payments, as Polar's SDK reads them", () => {
  it("lists every charge attempt of a checkout, the declined one with its reason, and reads one by id", async () => {
    const { checkout, order } = await declinedThenPaid("twice@example.com");
    const { result } = await shop.polar.payments.list({ checkoutId: checkout.id, sorting: ["created_at"] });
    expect(result.pagination.totalCount).toBe(2);
    expect(result.items).toMatchObject([
      { processor: "stripe", status: "failed", method: "card", amount: 2100, currency: "usd", declineReason: "insufficient_funds", declineMessage: "Your card has insufficient funds.", checkoutId: checkout.id, orderId: null, methodMetadata: { brand: "visa", last4: "9995" } },
      { processor: "stripe", status: "succeeded", method: "card", amount: 2100, declineReason: null, checkoutId: checkout.id, orderId: order.id, methodMetadata: { brand: "visa", last4: "4242" } },
    ]);
    const [, paid] = result.items;
    expect(await shop.polar.payments.get({ id: paid?.id ?? "" })).toEqual(paid);
  });

  it("narrows by order, status, method and the buyer's e-mail, and keeps one seller's payments from another", async () => {
    const { order } = await declinedThenPaid("filters@example.com");
    const list = async (request: Parameters<Polar["payments"]["list"]>[0]) => (await shop.polar.payments.list(request)).result.items.map((payment) => [payment.status, payment.orderId]);
    expect(await list({ orderId: order.id })).toEqual([["succeeded", order.id]]);
    expect(await list({ customerEmail: "FILTERS@example.com", status: "failed" })).toEqual([["failed", null]]);
    expect(await list({ customerEmail: "filters@example.com", method: "paypal" })).toEqual([]);
    expect(await list({ customerEmail: "filters@example.com", method: "card", sorting: ["-created_at"] })).toEqual([
      ["succeeded", order.id],
      ["failed", null],
    ]);

    const other = await stack.seller();
    expect((await other.polar.payments.list({})).result.items).toEqual([]);
    const [mine] = (await shop.polar.payments.list({ orderId: order.id })).result.items;
    await expect(other.polar.payments.get({ id: mine?.id ?? "" })).rejects.toMatchObject({ statusCode: 404 });
  });
});
