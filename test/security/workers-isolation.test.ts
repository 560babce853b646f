import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Polar } from "@polar-sh/sdk";
import type { Knex } from "@tollgate/kit";
import { startBillingStack, type BillingStack, type Seller } from "../stacks/billing.js";
import { advanceDays, announced, eventTypesAbout, ordersOf, subscribe } from "../stacks/purchases.js";
import { startSmtpCatcher, type SmtpCatcher } from "../stacks/smtp-catcher.js";
import { rawRequest } from "./attacker.js";

/**
 * #28: one seller's item that a background worker cannot finish never holds back another seller's
 * work. For each worker, seller A's item is poisoned and seller B's item of the same worker is done
 * in time; A's is set aside after a bounded number of tries, with its reason, and listed for A (and
 * not for B) by `GET /v1/set-aside-work/`.
 *
 * No input a seller can send makes these workers fail any more, so most poison here is a trigger
 * this test creates on seller A's rows only, standing for whatever an item might hold that cannot be
 * worked on. Mail is poisoned through a real input: a mail server whose answer holds a NUL.
 */

const POISONED_MAILBOX = "poisoned.mailbox@example.com";

let stack: BillingStack;
let smtp: SmtpCatcher;
let customerSide: Polar;
let poisons = 0;

beforeAll(async () => {
  smtp = await startSmtpCatcher({ nulInReplies: true, refuse: (recipients) => (recipients.includes(POISONED_MAILBOX) ? { code: 451, message: "mailbox busy \u0000 try later" } : undefined) });
  stack = await startBillingStack({ CUSTOMER_STATE_DEBOUNCE_MS: "300" }, {}, { SMTP_URL: smtp.url });
  customerSide = new Polar({ serverURL: stack.gateway.url });
});

afterAll(async () => {
  await stack?.stop();
  await smtp?.close();
});

const sellers = () => Promise.all([stack.seller(), stack.seller()]);

/** A value as an SQL literal, for the ids this test puts into a trigger's text. */
function literal(value: string): string {
  if (!/^[\w-]+$/.test(value)) throw new Error(`not an id: ${value}`);
  return `'${value}'`;
}

/**
 * Makes `event` on billing's `table` fail wherever `condition` (SQL over `new` and `old`) holds: a
 * trigger on seller A's rows only. What it returns takes the poison away.
 */
async function poison(table: string, event: "insert" | "update" | "delete", condition: string): Promise<() => Promise<void>> {
  poisons += 1;
  const name = `poison_${poisons}`;
  const db: Knex = stack.billing.context.db;
  await db.raw(`create function ${name}() returns trigger language plpgsql as $$
    begin
      if ${condition} then raise exception 'a poisoned % row', TG_TABLE_NAME; end if;
      if TG_OP = 'DELETE' then return old; end if;
      return new;
    end $$`);
  await db.raw(`create trigger ${name} before ${event} on ${table} for each row execute function ${name}()`);
  return async () => {
    await db.raw(`drop trigger ${name} on ${table}`);
  };
}

interface SetAsideWork {
  id: string;
  worker: string;
  item_id: string;
  organization_id: string;
  reason: string;
  failures: number;
}

/** The seller's set-aside work, as their token lists it. */
async function setAsideOf(seller: Seller): Promise<SetAsideWork[]> {
  const answer = await rawRequest(stack.gateway.url, "/v1/set-aside-work/", { headers: { authorization: `Bearer ${seller.token}` } });
  expect(answer.status, answer.text).toBe(200);
  return (JSON.parse(answer.text) as { items: SetAsideWork[] }).items;
}

/** What A's poisoned item looks like once set aside. */
const setAside = (worker: string, itemId: string, seller: Seller, table: string) => ({
  worker,
  item_id: itemId,
  organization_id: seller.organizationId,
  reason: `a poisoned ${table} row`,
  failures: 5,
});

/** A free product of the seller's, confirmed on a checkout by a buyer. */
async function confirmedFreePurchase(seller: Seller, email: string) {
  const product = await seller.polar.products.create({ name: "Free", prices: [{ amountType: "free" }] });
  const checkout = await seller.polar.checkouts.create({ products: [product.id] });
  await customerSide.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: { customerEmail: email } });
  return checkout;
}

describe("#28 one seller's poison item never holds back another seller's background work", () => {
  it("renewals: A's renewal is set aside after five tries while B's renews; A tries it again once the cause is gone", { timeout: 60_000 }, async () => {
    const [a, b] = await sellers();
    const { subscription: renewedA } = await subscribe(stack, a, "4242424242424242", `renewal.a.${Date.now()}@example.com`);
    const { subscription: renewedB } = await subscribe(stack, b, "4242424242424242", `renewal.b.${Date.now()}@example.com`);
    const cure = await poison("subscriptions", "update", `new.organization_id = ${literal(a.organizationId)} and new.current_period_start is distinct from old.current_period_start`);
    // Both come due in a moment, A's first: one claim of the renewal worker takes both.
    const due = Date.now() + 1_500;
    await a.polar.subscriptions.update({ id: renewedA.id, subscriptionUpdate: { currentBillingPeriodEnd: new Date(due) } });
    await b.polar.subscriptions.update({ id: renewedB.id, subscriptionUpdate: { currentBillingPeriodEnd: new Date(due + 100) } });
    await new Promise((resolve) => setTimeout(resolve, due + 200 - Date.now()));

    const renewals = stack.billing.context.app.renewals;
    const passes = <Result>(look: () => Promise<Result>) => async () => (renewals.wake(), look());
    await expect.poll(passes(async () => (await ordersOf(b, renewedB.id)).length), { timeout: 10_000, interval: 100 }).toBe(2);
    await expect.poll(passes(() => setAsideOf(a)), { timeout: 10_000, interval: 100 }).toEqual([expect.objectContaining(setAside("subscription_renewal", renewedA.id, a, "subscriptions"))]);
    expect(await setAsideOf(b)).toEqual([]);
    expect(await ordersOf(a, renewedA.id)).toHaveLength(1);

    // Set aside, it is tried no more; its seller, and only they, may send it back to work.
    const [item] = await setAsideOf(a);
    const retry = (seller: Seller) => rawRequest(stack.gateway.url, `/v1/set-aside-work/${item?.id}/retry`, { method: "POST", headers: { authorization: `Bearer ${seller.token}` } });
    expect((await retry(b)).status).toBe(404);
    await cure();
    expect((await retry(a)).status).toBe(202);
    await expect.poll(async () => (await ordersOf(a, renewedA.id)).length, { timeout: 10_000 }).toBe(2);
    expect(await setAsideOf(a)).toEqual([]);
  });

  it("payments: A's confirmed checkout whose order cannot be placed is set aside while B's is paid", { timeout: 60_000 }, async () => {
    const [a, b] = await sellers();
    await poison("orders", "insert", `new.organization_id = ${literal(a.organizationId)}`);
    const [checkoutA, checkoutB] = await Promise.all([confirmedFreePurchase(a, "payer.a@example.com"), confirmedFreePurchase(b, "payer.b@example.com")]);
    await expect.poll(async () => (await b.polar.checkouts.get({ id: checkoutB.id })).status, { timeout: 10_000 }).toBe("succeeded");

    // A's job is tried again after a growing wait; the test skips the waiting.
    const db: Knex = stack.billing.context.db;
    const payments = stack.billing.context.app.payments;
    const retriedNow = async () => {
      await db("checkout_payment_jobs").where({ checkout_id: checkoutA.id }).update({ run_at: new Date() });
      payments.wake();
      return setAsideOf(a);
    };
    await expect.poll(retriedNow, { timeout: 20_000, interval: 200 }).toEqual([expect.objectContaining(setAside("checkout_payment", checkoutA.id, a, "orders"))]);
    expect(await setAsideOf(b)).toEqual([]);
    expect((await a.polar.checkouts.get({ id: checkoutA.id })).status).toBe("confirmed");
  });

  it("checkout expiry: A's overdue checkout that cannot be expired is set aside while B's expires", { timeout: 60_000 }, async () => {
    const [a, b] = await sellers();
    const open = async (seller: Seller) => seller.polar.checkouts.create({ products: [(await seller.polar.products.create({ name: "Kept open", prices: [{ amountType: "free" }] })).id] });
    const [checkoutA, checkoutB] = await Promise.all([open(a), open(b)]);
    await poison("checkouts", "update", `new.organization_id = ${literal(a.organizationId)} and new.status = 'expired'`);
    // A day later in both sellers' clocks, both checkouts are overdue. Reading one would expire it
    // on the spot, so the sweep's work is seen in what it announces.
    for (const seller of [a, b]) await advanceDays(stack, seller, 1);

    const sweep = stack.billing.context.app.checkoutExpiry;
    const passes = <Result>(look: () => Promise<Result>) => async () => (sweep.wake(), look());
    await expect.poll(passes(() => eventTypesAbout(stack, checkoutB.id)), { timeout: 10_000, interval: 100 }).toContain("checkout.expired");
    await expect.poll(passes(() => setAsideOf(a)), { timeout: 10_000, interval: 100 }).toEqual([expect.objectContaining(setAside("checkout_expiry", checkoutA.id, a, "checkouts"))]);
    expect(await setAsideOf(b)).toEqual([]);
    expect(await eventTypesAbout(stack, checkoutA.id)).not.toContain("checkout.expired");
  });

  it("customer state: A's customer whose state cannot be announced is set aside while B's is announced", { timeout: 60_000 }, async () => {
    const [a, b] = await sellers();
    await poison("customer_state_changes", "delete", `exists (select 1 from customers customer where customer.id = old.customer_id and customer.organization_id = ${literal(a.organizationId)})`);
    const [customerA, customerB] = await Promise.all([a.polar.customers.create({ email: "state.a@example.com" }), b.polar.customers.create({ email: "state.b@example.com" })]);

    await expect.poll(async () => (await announced(stack, "customer.state_changed", customerB.id)).length, { timeout: 10_000 }).toBe(1);
    await expect.poll(() => setAsideOf(a), { timeout: 10_000 }).toEqual([expect.objectContaining(setAside("customer_state", customerA.id, a, "customer_state_changes"))]);
    expect(await setAsideOf(b)).toEqual([]);
    expect(await announced(stack, "customer.state_changed", customerA.id)).toEqual([]);
  });

  it("mail: a mail whose server answers with a NUL is recorded, given up after its attempts and set aside for operators, while other mail goes out", { timeout: 60_000 }, async () => {
    const askForReset = async (email: string) => {
      const browser = stack.browser();
      await browser.client.signUp.email({ name: email, email, password: "correct horse battery staple" });
      const { error } = await browser.client.requestPasswordReset({ email, redirectTo: "/reset" });
      expect(error).toBeNull();
    };
    const other = `other.mailbox.${Date.now()}@example.com`;
    await Promise.all([askForReset(POISONED_MAILBOX), askForReset(other)]);
    expect((await smtp.next(other)).subject).toBe("Reset your password");

    const db: Knex = stack.auth.context.db;
    const poisoned = () => db("mails").where({ to_address: POISONED_MAILBOX }).first<{ id: string; attempts: number; last_error: string | null; sent_at: Date | null }>();
    await expect.poll(poisoned, { timeout: 10_000 }).toMatchObject({ attempts: 1, last_error: "Message failed: 451 mailbox busy  try later", sent_at: null });

    // Skip the hours of back-off: seven failures are on record and the last try is due now.
    await db("mails").where({ to_address: POISONED_MAILBOX }).update({ attempts: 7, run_at: new Date() });
    const mail = await poisoned();
    await expect.poll(() => db("set_aside_work").where({ worker: "mail" }).select("item", "organization_id", "reason"), { timeout: 10_000 }).toEqual([
      { item: mail?.id, organization_id: null, reason: "Message failed: 451 mailbox busy  try later" },
    ]);
    expect(await poisoned()).toMatchObject({ attempts: 8, sent_at: null });
    const counted = await stack.auth.context.metrics.workSetAside.get();
    expect(counted.values).toEqual([expect.objectContaining({ labels: { worker: "mail" }, value: 1 })]);
  });
});
