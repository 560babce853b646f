import { HttpError, pageJson, polarErrors, type Knex } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { customerIdsWithEmail } from "../customers/customers.sql.js";
import { pageOfCustomersOrders } from "../orders/orders.sql.js";
import { shownOrders } from "../orders/service.js";
import { sellerNames } from "../organizations/organizations.sql.js";
import { shownSubscriptions } from "../subscriptions/service.js";
import { pageOfCustomersSubscriptions } from "../subscriptions/subscriptions.sql.js";
import { findPerson } from "../users/users.sql.js";
import { purchaseJson } from "./output.js";

/** Newest first: what a user looks for in their purchases is what they bought last. */
const NEWEST_FIRST = [{ property: "created_at" as const, descending: true }];

/**
 * The customers (one per seller at most) that are this signed-in user: those with their e-mail, once
 * they have verified that address, so that nobody sees another's purchases by claiming an e-mail.
 */
async function customerIdsOf(db: Knex, identity: IdentityClaims): Promise<string[]> {
  if (identity.kind !== "user") throw new HttpError(401, polarErrors.codes.unauthorized, "Sign in to see your purchases.");
  const person = await findPerson(db, identity.user_id);
  if (!person?.email_verified) return [];
  return customerIdsWithEmail(db, person.email);
}

/** Each purchase as shown, with the seller of its row. */
async function withSellers<Row extends { organization_id: string }, Shown extends object>(db: Knex, rows: Row[], shown: Shown[]) {
  const named = await sellerNames(db, [...new Set(rows.map((row) => row.organization_id))]);
  return shown.map((item, index) => purchaseJson(item, named.find((seller) => seller.id === rows[index]?.organization_id)));
}

/** One page of the user's orders from every seller. */
export async function purchasedOrders(db: Knex, identity: IdentityClaims, page: { page: number; limit: number }) {
  const { rows, total } = await pageOfCustomersOrders(db, await customerIdsOf(db, identity), {}, { ...page, sort: NEWEST_FIRST });
  return pageJson(await withSellers(db, rows, await shownOrders(db, rows)), total, page.limit);
}

/** One page of the user's subscriptions to every seller. */
export async function purchasedSubscriptions(db: Knex, identity: IdentityClaims, page: { page: number; limit: number }, publicUrl: string) {
  const { rows, total } = await pageOfCustomersSubscriptions(db, await customerIdsOf(db, identity), {}, { ...page, sort: NEWEST_FIRST });
  return pageJson(await withSellers(db, rows, await shownSubscriptions(db, rows, publicUrl)), total, page.limit);
}
