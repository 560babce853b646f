import type { Knex } from "@tollgate/kit";

/** Notes a Stripe event as received, in the unit applying it; false when it already was (a delivery repeated). */
export async function receiveStripeEvent(db: Knex, event: { id: string; type: string }): Promise<boolean> {
  const inserted = await db("stripe_events").insert(event).onConflict("id").ignore().returning("id");
  return inserted.length > 0;
}

/**
 * Notes a Stripe event about a checkout's payment as received and, the first time, makes that
 * payment's job due now unless a replica holds it, in one statement (no transaction to open for the
 * commonest event). Whether it was received now, and whether a job was made due.
 */
export async function receivePaymentEvent(db: Knex, event: { id: string; type: string }, checkoutId: string): Promise<{ received: boolean; hurried: boolean }> {
  // crosses into checkouts: the payment job the event is about, made due in the statement that notes the event.
  const { rows } = await db.raw<{ rows: { received: boolean; hurried: boolean }[] }>(
    `with received as (insert into stripe_events (id, type) values (?, ?) on conflict (id) do nothing returning id),
     hurried as (
       update checkout_payment_jobs set run_at = now()
       where checkout_id = ? and exists (select 1 from received) and (leased_until is null or leased_until < now())
       returning 1)
     select exists (select 1 from received) as received, exists (select 1 from hurried) as hurried`,
    [event.id, event.type, checkoutId],
  );
  return rows[0] ?? { received: false, hurried: false };
}
