import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { fillCheckout, mailedText, newPerson, nextYearExpiry, openShop, screenshotFailure, signUp, startBrowsing, stopBrowsing, type ShopApi } from "./browser.js";
import { screenChecks } from "./text-checks.js";

beforeAll(startBrowsing, 240_000);
afterAll(stopBrowsing);

const { checkConsole, checkPhone } = screenChecks("es", "console-sales");

/** A buyer pays for `productId` on the hosted checkout with 4242, after trying a card that is declined when `declinedFirst`. */
async function buy(api: ShopApi, productId: string, email: string, { declinedFirst = false } = {}): Promise<void> {
  const checkout = await api<{ client_secret: string }>("/v1/checkouts/", { products: [productId], currency: "eur" });
  const buyer = await newPerson();
  await buyer.page.goto(`/checkout/${checkout.client_secret}`);
  await fillCheckout(buyer.page, buyer.say, { email, country: "ES", card: declinedFirst ? "4000 0000 0000 9995" : "4242 4242 4242 4242" });
  if (declinedFirst) {
    await buyer.page.getByRole("button", { name: /^Pay / }).click();
    await buyer.page.getByText("Your card has insufficient funds.").waitFor();
    await buyer.page.getByLabel(buyer.say("checkout.cardNumber")).fill("4242 4242 4242 4242");
  }
  await buyer.page.getByRole("button", { name: /^Pay / }).click();
  await buyer.page.getByRole("heading", { name: buyer.say("checkout.thankYou") }).waitFor();
  await buyer.context.close();
}

/** Money as Spanish writes it, with the no-break space Intl puts before the symbol. */
const euros = (amount: string) => `${amount}\u00a0€`;

describe("the seller's customers and orders", () => {
  it("finds a buyer, opens their page and portal, refunds their order in two steps and filters orders by status, saves a dashboard of two metrics and downloads it, in Spanish and at phone width", { timeout: 210_000 }, async () => {
    onTestFailed(screenshotFailure);
    const stamp = Date.now();
    const { page, say } = await newPerson({ locale: "es", viewport: { width: 1280, height: 800 } });
    await signUp(page, "Elena Vendedora", `ventas-${stamp}@example.com`);
    const slug = `ceramica-${stamp}`;
    const { api } = await openShop(page, "Cerámica Elena", slug, ["products:write", "checkouts:write"]);
    const course = await api<{ id: string }>("/v1/products/", { name: "Curso de torno", prices: [{ amount_type: "fixed", price_amount: 4_000, price_currency: "eur" }] });
    const club = await api<{ id: string }>("/v1/products/", { name: "Club del barro", recurring_interval: "month", prices: [{ amount_type: "fixed", price_amount: 900, price_currency: "eur" }] });
    const email = `lucia-${stamp}@example.com`;
    await buy(api, course.id, email, { declinedFirst: true });
    await buy(api, club.id, email);

    // The buyer is found by part of their e-mail, searched by the server.
    await page.goto(`/${slug}/customers`);
    await page.getByText(say("seller.customers.total", { total: 1 })).waitFor();
    await page.getByLabel(say("seller.customers.search")).fill("nadie");
    await page.getByText(say("seller.customers.noMatch")).waitFor();
    await page.getByLabel(say("seller.customers.search")).fill(`lucia-${stamp}`);
    await page.getByRole("link", { name: email }).click();

    // Their page: what they have now (the club, renewing monthly) and both orders.
    await page.getByRole("heading", { name: email, level: 1 }).waitFor();
    await page.getByText(new RegExp(`^Club del barro: ${euros("9,00")} al mes, se renueva el `)).waitFor();
    const orderRow = page.getByRole("row", { name: /Curso de torno/ });
    await orderRow.waitFor();
    await expect.poll(() => orderRow.textContent()).toContain(say("seller.orders.status.paid"));
    await checkConsole(page, "customer");
    await checkPhone(page, "customer");

    // Their portal opens in a new tab, signed in as them.
    const [portal] = await Promise.all([page.context().waitForEvent("page"), page.getByRole("button", { name: say("seller.customer.portal") }).click()]);
    // The portal takes the token out of the address bar as soon as it has read it, so the address is
    // not what tells it opened signed in: the buyer's orders are.
    await portal.waitForURL(new RegExp(`/${slug}/portal`));
    await portal.getByRole("heading", { name: say("portal.orders.title") }).waitFor();
    await portal.close();

    // A name given in the edit dialog becomes the page's title.
    await page.getByRole("button", { name: say("seller.customer.edit") }).click();
    await page.getByRole("dialog").getByLabel(say("seller.customer.form.name")).fill("Lucía Gómez");
    await page.getByRole("button", { name: say("seller.customer.form.save") }).click();
    await page.getByRole("heading", { name: "Lucía Gómez", level: 1 }).waitFor();

    // The order: its amounts, and a refund of part of it.
    await orderRow.getByRole("link").click();
    await page.getByText(say("seller.orders.reason.purchase")).waitFor();
    await page.getByRole("link", { name: `Lucía Gómez (${email})` }).waitFor();
    // Both attempts to pay it: the declined card, in the seller's language, then the one that paid.
    const payments = page.getByRole("listitem").filter({ hasText: "•••• " });
    await expect.poll(() => payments.allTextContents()).toEqual([
      expect.stringMatching(new RegExp(`^${euros("40,00")} con visa •••• 9995 el .* ${say("seller.order.payment.failed")} ${say("seller.order.decline.insufficientFunds")}$`)),
      expect.stringMatching(new RegExp(`^${euros("40,00")} con visa •••• 4242 el .* ${say("seller.order.payment.succeeded")}$`)),
    ]);
    await page.getByText(say("seller.order.noDisputes")).waitFor();
    const [receipt] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: say("seller.order.receipt") }).click()]);
    // In the buyer's language, which the checkout did not set: English.
    expect(receipt.suggestedFilename()).toMatch(/^Receipt-.*\.pdf$/);
    await checkConsole(page, "order");
    await page.getByRole("button", { name: say("seller.refund.open") }).click();
    const dialog = page.getByRole("dialog");
    await expect.poll(() => dialog.getByLabel(say("seller.refund.amount")).inputValue()).toBe("40,00");
    await dialog.getByLabel(say("seller.refund.amount")).fill("50");
    await dialog.getByRole("button", { name: say("seller.refund.submit") }).click();
    await dialog.getByText(say("forms.refund.tooLarge", { left: euros("40,00") })).waitFor();
    await checkConsole(page, "refund-dialog");
    await dialog.getByLabel(say("seller.refund.amount")).fill("15");
    await dialog.getByLabel(say("seller.refund.reason")).selectOption({ label: say("seller.refund.reason.satisfactionGuarantee") });
    await dialog.getByRole("button", { name: say("seller.refund.submit") }).click();
    await dialog.waitFor({ state: "detached" });

    // What was refunded and what is left; the rest is the dialog's new default.
    const amounts = page.locator(".facts-row");
    await amounts.filter({ hasText: say("seller.order.left") }).getByText(euros("25,00")).waitFor();
    await amounts.filter({ hasText: say("seller.order.refunded") }).getByText(euros("15,00")).waitFor();
    await page.getByText(say("seller.orders.status.partiallyRefunded")).waitFor();
    await page.getByText(new RegExp(`^${euros("15,00")} el .*: ${say("seller.refund.reason.satisfactionGuarantee")}$`)).waitFor();
    await checkPhone(page, "order");
    await page.getByRole("button", { name: say("seller.refund.open") }).click();
    await expect.poll(() => dialog.getByLabel(say("seller.refund.amount")).inputValue()).toBe("25,00");
    await dialog.getByRole("button", { name: say("seller.refund.submit") }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByText(say("seller.refund.nothingLeft")).waitFor();
    await amounts.filter({ hasText: say("seller.order.status") }).getByText(say("seller.orders.status.refunded"), { exact: true }).waitFor();

    // The orders list, narrowed to refunded orders by the server.
    await page.getByRole("link", { name: say("seller.order.back") }).click();
    await page.getByRole("heading", { name: say("seller.orders.title"), level: 1 }).waitFor();
    await expect.poll(() => page.getByRole("row").count()).toBe(3);
    await page.getByLabel(say("seller.orders.filter.status")).selectOption({ label: say("seller.orders.status.refunded") });
    await expect.poll(() => page.getByRole("row").count()).toBe(2);
    await page.getByRole("row", { name: /Curso de torno/ }).waitFor();
    await page.getByLabel(say("seller.orders.filter.status")).selectOption({ label: say("seller.orders.status.partiallyRefunded") });
    await page.getByText(say("seller.orders.noMatch")).waitFor();
    await page.getByLabel(say("seller.orders.filter.status")).selectOption({ label: say("seller.orders.filter.any") });
    await page.getByLabel(say("seller.orders.filter.billingType")).selectOption({ label: say("seller.orders.billingType.recurring") });
    await page.getByRole("row", { name: /Club del barro/ }).waitFor();
    await checkConsole(page, "orders");
    await checkPhone(page, "orders");

    // The dashboard: two metrics chosen and saved as a dashboard, opened again after a reload, renamed, downloaded and deleted.
    await page.goto(`/${slug}`);
    await page.getByRole("heading", { name: say("seller.dashboard.title"), level: 1 }).waitFor();
    const cards = page.locator(".metric-card");
    await expect.poll(() => cards.count()).toBe(12);
    await page.getByText(say("seller.dashboard.saved.chooser", { shown: 12, all: 12 })).click();
    for (const metric of ["netRevenue", "averageOrderValue", "monthlyRecurringRevenue", "trialMonthlyRecurringRevenue", "activeSubscriptions", "newSubscriptions", "canceledSubscriptions", "checkoutsConversion", "churnRate", "averageRevenuePerUser"]) {
      await page.getByRole("checkbox", { name: say(`seller.dashboard.metric.${metric}`), exact: true }).uncheck();
    }
    await expect.poll(() => cards.getByRole("heading").allTextContents()).toEqual([say("seller.dashboard.metric.grossRevenue"), say("seller.dashboard.metric.orders")]);
    await page.getByRole("button", { name: say("seller.dashboard.saved.saveAs") }).click();
    await dialog.getByRole("button", { name: say("seller.dashboard.saved.saveName") }).click();
    await dialog.getByText(say("forms.required.aName")).waitFor();
    await dialog.getByLabel(say("seller.dashboard.saved.name")).fill("Ventas del mes");
    await dialog.getByRole("button", { name: say("seller.dashboard.saved.saveName") }).click();
    await dialog.waitFor({ state: "detached" });
    const picker = page.getByLabel(say("seller.dashboard.saved.dashboard"), { exact: true });
    await expect.poll(() => picker.locator("option:checked").textContent()).toBe("Ventas del mes");

    await page.reload();
    await expect.poll(() => cards.count()).toBe(12);
    await picker.selectOption({ label: "Ventas del mes" });
    await expect.poll(() => cards.count()).toBe(2);
    await page.getByRole("button", { name: say("seller.dashboard.saved.rename") }).click();
    await expect.poll(() => dialog.getByLabel(say("seller.dashboard.saved.name")).inputValue()).toBe("Ventas del mes");
    await dialog.getByLabel(say("seller.dashboard.saved.name")).fill("Ventas");
    await dialog.getByRole("button", { name: say("seller.dashboard.saved.saveName") }).click();
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => picker.locator("option:checked").textContent()).toBe("Ventas");
    await checkConsole(page, "dashboard-saved");
    await checkPhone(page, "dashboard-saved");

    // The CSV holds what the dashboard shows: a row per day, its orders and revenue (both sales, before their refunds).
    await expect.poll(() => page.getByRole("region", { name: say("seller.dashboard.metric.orders"), exact: true }).locator(".metric-figure").textContent()).toBe("2");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: say("seller.dashboard.export.download") }).click()]);
    expect(download.suggestedFilename()).toMatch(/^metrics-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv$/);
    const [header, ...days] = (await readFile(await download.path(), "utf8")).trimEnd().split("\r\n");
    expect(header).toBe("Timestamp,Orders,Revenue");
    expect(days).toHaveLength(30);
    const sums = days.map((line) => line.split(",").slice(1).map(Number)).reduce(([orders = 0, revenue = 0], [dayOrders = 0, dayRevenue = 0]) => [orders + dayOrders, revenue + dayRevenue], [0, 0]);
    expect(sums).toEqual([2, 4_900]);

    await page.getByRole("button", { name: say("seller.dashboard.saved.delete") }).click();
    await dialog.getByRole("button", { name: say("seller.dashboard.saved.delete") }).click();
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => cards.count()).toBe(12);
    await expect.poll(() => picker.locator("option").allTextContents()).toEqual([say("seller.dashboard.saved.allMetrics")]);
  });

  it("lets a buyer reach the portal alone, with a code mailed to them, keep and replace cards, and stay signed in across tabs until they sign out", { timeout: 90_000 }, async () => {
    onTestFailed(screenshotFailure);
    const stamp = Date.now();
    const seller = await newPerson({ locale: "es" });
    await signUp(seller.page, "Tienda de Marta", `marta-${stamp}@example.com`);
    const slug = `libros-${stamp}`;
    const { api } = await openShop(seller.page, "Libros Marta", slug, ["products:write", "checkouts:write", "orders:read", "refunds:write"]);
    const book = await api<{ id: string }>("/v1/products/", { name: "Cuaderno de bocetos", prices: [{ amount_type: "fixed", price_amount: 1_500, price_currency: "eur" }] });
    const email = `pablo-${stamp}@example.com`;
    await buy(api, book.id, email);

    const { context, page, say } = await newPerson({ locale: "es", viewport: { width: 390, height: 844 } });
    await page.goto(`/${slug}/portal`);
    await page.getByLabel(say("portal.signIn.email")).fill("no es un correo");
    await page.getByRole("button", { name: say("portal.signIn.send") }).click();
    await page.getByText(say("forms.email.invalid")).waitFor();
    await checkConsole(page, "portal-sign-in");
    await page.getByLabel(say("portal.signIn.email")).fill(email);
    await page.getByRole("button", { name: say("portal.signIn.send") }).click();
    await page.getByText(say("portal.signIn.sent", { email, seller: "Libros Marta" })).waitFor();

    // A wrong code is refused in the buyer's language; the mailed one, typed in lower case, opens the portal.
    await page.getByLabel(say("portal.signIn.code")).fill("AAAABBBB");
    await page.getByRole("button", { name: say("portal.signIn.submit") }).click();
    await page.getByText(say("api.error.CustomerSessionCodeInvalidOrExpired")).waitFor();
    await checkConsole(page, "portal-code");
    const code = /^[A-HJ-NP-Z2-9]{8}$/m.exec(await mailedText(email, "Tu código de acceso para Libros Marta"))?.[0] ?? "";
    await page.getByLabel(say("portal.signIn.code")).fill(code.toLowerCase());
    await page.getByRole("button", { name: say("portal.signIn.submit") }).click();
    await page.getByRole("heading", { name: say("portal.title", { seller: "Libros Marta" }) }).waitFor();
    await page.getByText("Cuaderno de bocetos").first().waitFor();
    await checkConsole(page, "portal-signed-in");

    // The order's receipt downloads as a PDF; its invoice first wants the buyer's billing name and address.
    const ordersList = page.getByRole("list", { name: say("portal.orders.label") });
    const [receipt] = await Promise.all([page.waitForEvent("download"), ordersList.getByRole("button", { name: say("portal.documents.receipt") }).click()]);
    expect(receipt.suggestedFilename()).toMatch(/\.pdf$/);
    await ordersList.getByRole("button", { name: say("portal.documents.invoice") }).click();
    await page.getByText(say("portal.documents.needsDetails")).waitFor();
    await page.getByLabel(say("portal.billing.name")).fill("Pablo Ruiz");
    await page.getByLabel(say("portal.billing.address"), { exact: true }).fill("Calle Mayor 5");
    await page.getByLabel(say("portal.billing.city")).fill("Madrid");
    await page.getByRole("button", { name: say("portal.billing.submit") }).click();
    await page.getByText(say("portal.billing.saved")).waitFor();
    const [invoice] = await Promise.all([page.waitForEvent("download"), ordersList.getByRole("button", { name: say("portal.documents.invoice") }).click()]);
    // Printed in the customer's own language, which no checkout set for them: English.
    expect(invoice.suggestedFilename()).toMatch(/^Invoice-.*\.pdf$/);
    // A refund of the invoiced order brings a credit note beside it, once it is made.
    const [order] = (await api<{ items: { id: string; invoice_number: string }[] }>("/v1/orders/")).items;
    await api("/v1/refunds/", { order_id: order?.id, reason: "customer_request", amount: 500 });
    const creditNote = ordersList.getByRole("button", { name: say("portal.documents.creditNote", { number: `${order?.invoice_number ?? ""}-CN1` }) });
    await expect.poll(async () => (await page.reload(), await page.getByText("Cuaderno de bocetos").first().waitFor(), await creditNote.count()), { timeout: 20_000 }).toBe(1);
    const [note] = await Promise.all([page.waitForEvent("download"), creditNote.click()]);
    expect(note.suggestedFilename()).toMatch(/\.pdf$/);

    // The buyer keeps a card, makes a second one the default, then removes the first.
    const cards = page.getByRole("list", { name: say("portal.cards.label") });
    const cardLine = (brand: string, last4: string) => say("portal.cards.card", { brand, last4, expiry: nextYearExpiry() });
    await page.getByText(say("portal.cards.none")).waitFor();
    const addCard = async (number: string, makeDefault: boolean) => {
      await page.getByRole("button", { name: say("portal.cards.add") }).click();
      await page.getByLabel(say("checkout.cardNumber")).fill(number);
      await page.getByLabel(say("checkout.expiry")).fill(nextYearExpiry());
      await page.getByLabel(say("checkout.cvc")).fill("123");
      if (!makeDefault) await page.getByLabel(say("portal.cards.useIt")).uncheck();
      await page.getByRole("button", { name: say("portal.cards.save") }).click();
      await page.getByText(say(makeDefault ? "portal.cards.savedDefault" : "portal.cards.saved")).waitFor();
    };
    await page.getByRole("button", { name: say("portal.cards.add") }).click();
    await page.getByRole("button", { name: say("portal.cards.save") }).click();
    await page.getByText(say("forms.card.number")).waitFor();
    await page.getByRole("button", { name: say("portal.cards.cancel") }).click();
    await addCard("5555 5555 5555 4444", true);
    await addCard("4242 4242 4242 4242", false);
    const visa = cards.getByRole("listitem").filter({ hasText: cardLine("Visa", "4242") });
    const mastercard = cards.getByRole("listitem").filter({ hasText: cardLine("Mastercard", "4444") });
    await mastercard.getByText(say("portal.cards.default")).waitFor();
    await checkConsole(page, "portal-cards");
    await visa.getByRole("button", { name: say("portal.cards.makeDefault") }).click();
    await page.getByText(say("portal.cards.madeDefault")).waitFor();
    await visa.getByText(say("portal.cards.default")).waitFor();
    await mastercard.getByRole("button", { name: say("portal.cards.remove") }).click();
    await page.getByRole("dialog").getByRole("button", { name: say("portal.cards.remove") }).click();
    await page.getByText(say("portal.cards.removed")).waitFor();
    await expect.poll(() => cards.getByRole("listitem").allTextContents()).toEqual([expect.stringContaining(cardLine("Visa", "4242"))]);

    // Another tab of the portal is signed in too, and signing out in one signs out both.
    const other = await context.newPage();
    await other.goto(`/${slug}/portal`);
    await other.getByText(say("portal.forEmail", { email })).waitFor();
    await page.getByRole("button", { name: say("portal.signOut") }).click();
    await page.getByRole("button", { name: say("portal.signIn.send") }).waitFor();
    await other.getByRole("button", { name: say("portal.signIn.send") }).waitFor();

    // A session that has run out (as this made-up token is refused) asks the buyer to sign in again, saying why.
    await page.evaluate(`localStorage.setItem(${JSON.stringify(`tollgate.customer-portal.${slug}`)}, "polar_cst_ran_out")`);
    await page.reload();
    await page.getByText(say("portal.sessionEnded")).waitFor();
    await page.getByRole("button", { name: say("portal.signIn.send") }).waitFor();
  });
});
