import type { Knex } from "@tollgate/kit";

/** The Stripe Customer made for one of our customers, if one was. */
export async function findStripeCustomer(db: Knex, customerId: string): Promise<string | undefined> {
  const row = await db("stripe_customers").where({ customer_id: customerId }).first<{ stripe_customer_id: string } | undefined>("stripe_customer_id");
  return row?.stripe_customer_id;
}

/** Links a customer to the Stripe Customer made for it; the link already kept wins (a second replica made the same one). */
export async function keepStripeCustomer(db: Knex, customerId: string, stripeCustomerId: string): Promise<string> {
  // A no-op update on conflict, so that the row kept comes back either way, in one statement.
  const [kept] = await db("stripe_customers")
    .insert({ customer_id: customerId, stripe_customer_id: stripeCustomerId })
    .onConflict("customer_id")
    .merge(["customer_id"])
    .returning<{ stripe_customer_id: string }[]>("stripe_customer_id");
  if (!kept) throw new Error(`customer ${customerId}: its Stripe Customer ${stripeCustomerId} was not kept`);
  return kept.stripe_customer_id;
}
