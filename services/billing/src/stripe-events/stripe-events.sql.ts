import type { Knex } from "@tollgate/kit";

/** Notes a Stripe event as received, in the unit applying it; false when it already was (a delivery repeated). */
export async function receiveStripeEvent(db: Knex, event: { id: string; type: string }): Promise<boolean> {
  const inserted = await db("stripe_events").insert(event).onConflict("id").ignore().returning("id");
  return inserted.length > 0;
}
