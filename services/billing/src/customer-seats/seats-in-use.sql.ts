import type { Knex } from "@tollgate/kit";

/**
 * How many of a subscription's seats are taken: assigned (pending a claim) or claimed, not revoked.
 * A subscription never sells fewer seats than this (Polar's SeatsAlreadyAssigned).
 */
export async function seatsInUse(db: Knex, subscriptionId: string): Promise<number> {
  const row = await db("customer_seats").where({ subscription_id: subscriptionId }).whereNot({ status: "revoked" }).count<{ count: string }[]>({ count: "*" }).first();
  return Number(row?.count ?? 0);
}
