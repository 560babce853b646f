/**
 * `npm run bench:seats` — a team's seats, in two phases, against one billing process run as
 * `npm start` runs it (NODE_ENV=production):
 *   1. assigning BENCH_SEATS seats (default 1,000) of one seat-based subscription, BENCH_CONCURRENCY
 *      requests at a time (default 16), each claimed at once with a license key granted: the rate
 *      and each assignment's time. They queue on the subscription's lock (the rule that no more seats
 *      are taken than bought), so the rate is that of one assignment after another;
 *   2. a membership change reaching the seat: the team linked to a buyer's organization, member.added
 *      (then member.removed) published on the bus as the organization service publishes them, at
 *      BENCH_STEADY_RATE a second for BENCH_STEADY_SECONDS, and the time from each publish to
 *      billing's customer_seat.claimed (.revoked) on the bus. Target: p99 ≤ 1 s.
 * The link is written into the database as consent would leave it (the consent flow is a person in a
 * browser, not what is measured); the people are billing's projection of auth's users, written the
 * same way. Prints figures and whether the machine was busy with other work; asserts nothing.
 */
import { randomUUID } from "node:crypto";
import { memberAdded, memberRemoved } from "@tollgate/proto";
import { cpuUse, snapshot } from "../cpu.js";
import { cpuLines, envInteger, formatMs, formatRate, isDisturbed, latencySummary, openBenchRun, progress, removeBenchRun, startBillingAlone } from "../support.js";

const SEATS = envInteger("BENCH_SEATS", 1_000);
const CONCURRENCY = envInteger("BENCH_CONCURRENCY", 16);
const STEADY_RATE = envInteger("BENCH_STEADY_RATE", 10);
const STEADY_SECONDS = envInteger("BENCH_STEADY_SECONDS", 20);
const TARGET_P99_MS = 1_000;
const nextYear = new Date().getUTCFullYear() + 1;

const run = await openBenchRun("seats", { poolMax: 4 });
const { id, db, bus, processes } = run;
try {
  const { url: billingUrl, as } = await startBillingAlone(run);

  // The seller, as the organization service's events would have made it.
  const sellerId = `org_${id}`;
  await db("organizations").insert({ id: sellerId, name: "Bench team tools", slug: `bench-seats-${id}` });
  const seller = as({ kind: "organization_token", token_id: "oat_bench", organization_id: sellerId, scopes: ["products:write", "benefits:write", "customers:write", "checkouts:write", "checkouts:read", "subscriptions:read", "customer_seats:write", "customer_seats:read"] });
  const anonymous = as({ kind: "anonymous" });
  const call = async <Result>(path: string, headers: () => Record<string, string>, body?: unknown): Promise<Result> => {
    const response = await fetch(`${billingUrl}${path}`, { method: body === undefined ? "GET" : "POST", headers: headers(), ...(body !== undefined && { body: JSON.stringify(body) }) });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as Result;
  };

  // A team buys more seats than both phases use, of a plan whose benefit is a license key per seat.
  const joiners = STEADY_RATE * STEADY_SECONDS;
  const bought = SEATS + joiners + 1;
  const benefit = await call<{ id: string }>("/v1/benefits/", seller, { type: "license_keys", description: "Seat licence", properties: {} });
  const product = await call<{ id: string }>("/v1/products/", seller, {
    name: "Team plan",
    recurring_interval: "month",
    prices: [{ amount_type: "seat_based", price_currency: "usd", seat_tiers: { seat_tier_type: "volume", tiers: [{ min_seats: 1, max_seats: null, price_per_seat: 500 }] } }],
  });
  await call(`/v1/products/${product.id}/benefits`, seller, { benefits: [benefit.id] });
  const team = await call<{ id: string }>("/v1/customers/", seller, { email: `owner-${id}@example.com`, type: "team", name: "Bench team" });
  const checkout = await call<{ id: string; client_secret: string }>("/v1/checkouts/", seller, { products: [product.id], customer_id: team.id, seats: bought });
  const token = await call<{ id: string }>("/v1/sandbox/confirmation-tokens", anonymous, { card_number: "4242424242424242", exp_month: 12, exp_year: nextYear, cvc: "123" });
  await call(`/v1/checkouts/client/${checkout.client_secret}/confirm`, anonymous, { customer_email: `owner-${id}@example.com`, customer_billing_address: { country: "US", state: "NY", postal_code: "10001" }, confirmation_token_id: token.id });
  let subscriptionId: string | undefined;
  while (!subscriptionId) {
    subscriptionId = (await call<{ items: { id: string }[] }>(`/v1/subscriptions/?customer_id=${team.id}`, seller)).items[0]?.id;
    if (!subscriptionId) await new Promise((done) => setTimeout(done, 100));
  }
  progress(`the team bought ${bought} seats`);

  // Phase 1: assignments, CONCURRENCY at a time.
  const billingPid = processes.pid("billing") ?? NaN;
  const before = await snapshot();
  const started = performance.now();
  const assignTimes: number[] = [];
  let begun = 0;
  const ticker = setInterval(() => progress(`${assignTimes.length} of ${SEATS} seats assigned`), 2_000);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (begun < SEATS) {
        const index = begun++;
        const sent = performance.now();
        await call("/v1/customer-seats", seller, { subscription_id: subscriptionId, email: `seat-${index}-${id}@example.com`, immediate_claim: true });
        assignTimes.push(performance.now() - sent);
      }
    }),
  );
  clearInterval(ticker);
  const assignSeconds = (performance.now() - started) / 1000;
  const assignCpu = await cpuUse(before, await snapshot(), { billing: [billingPid], "bench (client)": [process.pid] });
  const seats = await call<{ available_seats: number; total_seats: number }>(`/v1/customer-seats?subscription_id=${subscriptionId}`, seller);

  // Phase 2: the team's seats follow a buyer's organization; its members join and leave.
  const buyerOrganization = `org_buyer_${id}`;
  await db("customer_organization_links").insert({ customer_id: team.id, organization_id: sellerId, linked_organization_id: buyerOrganization, linked_by_user_id: "bench", requested_at: new Date(), linked_at: new Date() });
  const people = Array.from({ length: joiners }, (_, index) => ({ user_id: `user_${index}_${id}`, email: `joiner-${index}-${id}@example.com`, email_verified: true }));
  await db.batchInsert("people", people, 500);
  // Each change waits for billing's seat event: claimed is matched by the member's address, revoked by the seat it claimed.
  const awaited = new Map<string, { sent: number; done: (ms: number) => void; failed: (error: Error) => void }>();
  const seatOfEmail = new Map<string, string>();
  const answered = (key: string) => {
    const waiting = awaited.get(key);
    awaited.delete(key);
    waiting?.done(performance.now() - waiting.sent);
  };
  const claimed = bus.nc.subscribe(bus.names.eventSubject("billing.customer_seat.claimed"), {
    callback: (_error, message) => {
      const seat = message.json<{ data: { payload: { id: string; email: string | null } } }>().data.payload;
      if (!seat.email) return;
      seatOfEmail.set(seat.email, seat.id);
      answered(`claimed:${seat.email}`);
    },
  });
  const revoked = bus.nc.subscribe(bus.names.eventSubject("billing.customer_seat.revoked"), {
    callback: (_error, message) => answered(`revoked:${message.json<{ data: { payload: { id: string } } }>().data.payload.id}`),
  });
  /** Publishes a membership event as the organization service's outbox relay does; resolves once billing's seat event for it is on the bus (fails after 30 s). */
  const change = (event: typeof memberAdded | typeof memberRemoved, person: (typeof people)[number]) =>
    new Promise<number>((done, failed) => {
      const envelope = { id: randomUUID(), type: event.type, occurred_at: new Date().toISOString(), source: "organization", data: { id: `mem_${person.user_id}`, organization_id: buyerOrganization, user_id: person.user_id, role: "member" } };
      const key = event === memberAdded ? `claimed:${person.email}` : `revoked:${seatOfEmail.get(person.email) ?? "none"}`;
      const timer = setTimeout(() => failed(new Error(`no seat event for ${event.type} of ${person.email} within 30 s`)), 30_000);
      awaited.set(key, { sent: performance.now(), done: (ms) => (clearTimeout(timer), done(ms)), failed });
      void bus.js.publish(bus.names.eventSubject(envelope.type), JSON.stringify(envelope), { msgID: envelope.id });
    });
  const steadily = (each: (person: (typeof people)[number]) => Promise<number>) => {
    const from = performance.now();
    return Promise.all(
      people.map(async (person, index) => {
        await new Promise((done) => setTimeout(done, from + (index * 1000) / STEADY_RATE - performance.now()));
        return each(person);
      }),
    );
  };
  progress(`membership: ${joiners} members join at ${STEADY_RATE}/s`);
  const steadyBefore = await snapshot();
  const joined = await steadily((person) => change(memberAdded, person));
  progress(`membership: the same ${joiners} leave at ${STEADY_RATE}/s`);
  const left = await steadily((person) => change(memberRemoved, person));
  const steadyCpu = await cpuUse(steadyBefore, await snapshot(), { billing: [billingPid], "bench (client)": [process.pid] });
  claimed.unsubscribe();
  revoked.unsubscribe();

  const assigned = latencySummary(assignTimes);
  const join = latencySummary(joined);
  const leave = latencySummary(left);
  console.log(`seats (${SEATS} assigned, ${CONCURRENCY} at a time; ${bought} bought)`);
  console.log(`  assigning: ${formatRate(SEATS / assignSeconds)} (${SEATS} in ${assignSeconds.toFixed(1)} s); each p50 ${formatMs(assigned.p50)}, p99 ${formatMs(assigned.p99)}, max ${formatMs(assigned.max)}`);
  console.log(`  afterwards: ${seats.total_seats - seats.available_seats} of ${seats.total_seats} seats taken`);
  for (const line of cpuLines(assignCpu, (what) => `  while assigning, ${what}: `)) console.log(line);
  console.log(`  member.added → customer_seat.claimed at ${STEADY_RATE}/s: p50 ${formatMs(join.p50)}, p99 ${formatMs(join.p99)}, max ${formatMs(join.max)} (${joined.length}; target p99 ≤ ${formatMs(TARGET_P99_MS)}: ${join.p99 <= TARGET_P99_MS ? "met" : "missed"})`);
  console.log(`  member.removed → customer_seat.revoked at ${STEADY_RATE}/s: p50 ${formatMs(leave.p50)}, p99 ${formatMs(leave.p99)}, max ${formatMs(leave.max)} (${left.length}; target p99 ≤ ${formatMs(TARGET_P99_MS)}: ${leave.p99 <= TARGET_P99_MS ? "met" : "missed"})`);
  for (const line of cpuLines(steadyCpu, (what) => `  while following membership, ${what}: `)) console.log(line);
  if (isDisturbed(assignCpu) || isDisturbed(steadyCpu)) console.log("  other work shared the machine: these figures are slower than a quiet machine's");
} finally {
  await removeBenchRun(run);
}
