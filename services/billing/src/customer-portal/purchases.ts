import { z } from "zod";
import { defineEndpoint, HttpError, pageJson, paging, polarErrors, type Endpoint, type Knex } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { customerIdsWithEmail } from "../customers/customers.sql.js";
import { pageOfCustomersOrders } from "../orders/orders.sql.js";
import { shownOrders } from "../orders/service.js";
import { sellerNames } from "../organizations/organizations.sql.js";
import { findPerson } from "../users/users.sql.js";
import { shownSubscriptions } from "../subscriptions/service.js";
import { pageOfCustomersSubscriptions } from "../subscriptions/subscriptions.sql.js";
import { PurchasedOrderList, PurchasedSubscriptionList } from "./schemas.js";

const TAG = "me";

/**
 * A signed-in Tollgate user's purchases from every seller: what customers with their e-mail bought,
 * once they have verified that address (so nobody sees another's purchases by claiming an e-mail).
 */
export function purchaseEndpoints({ db, config }: { db: Knex; config: { PUBLIC_URL: string } }): Endpoint[] {

  /** The customers (one per seller at most) that are this user. */
  const customerIdsOf = async (identity: IdentityClaims): Promise<string[]> => {
    if (identity.kind !== "user") throw new HttpError(401, polarErrors.codes.unauthorized, "Sign in to see your purchases.");
    const person = await findPerson(db, identity.user_id);
    if (!person?.email_verified) return [];
    return customerIdsWithEmail(db, person.email);
  };
  /** Each row with its seller's name and slug, as the user sees purchases from many. */
  const withSeller = async <Row extends { organization_id: string }, Shown extends object>(rows: Row[], shown: Shown[]) => {
    const named = await sellerNames(db, [...new Set(rows.map((row) => row.organization_id))]);
    return shown.map((item, index) => ({ ...item, organization: named.find((seller) => seller.id === rows[index]?.organization_id) ?? null }));
  };

  return [
    defineEndpoint("/v1/me/orders/", { method: "GET", query: z.object(paging), response: PurchasedOrderList, summary: "List the signed-in user's orders from every seller", tag: TAG }, async ({ query, identity }) => {
      const { rows, total } = await pageOfCustomersOrders(db, await customerIdsOf(identity), { ...query, sort: [{ property: "created_at", descending: true }] });
      return pageJson(await withSeller(rows, await shownOrders(db, rows)), total, query.limit);
    }),
    defineEndpoint("/v1/me/subscriptions/", { method: "GET", query: z.object(paging), response: PurchasedSubscriptionList, summary: "List the signed-in user's subscriptions to every seller", tag: TAG }, async ({ query, identity }) => {
      const { rows, total } = await pageOfCustomersSubscriptions(db, await customerIdsOf(identity), undefined, { ...query, sort: [{ property: "created_at", descending: true }] });
      return pageJson(await withSeller(rows, await shownSubscriptions(db, rows, config.PUBLIC_URL)), total, query.limit);
    }),
  ];
}
