import { z } from "zod";
import { defineEndpoint, HttpError, pageJson, pageOf, paging, polarErrors, type Endpoint } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import type { Billing } from "../billing.js";
import { customers } from "../customers/customers.sql.js";
import { orders, type OrderRow } from "../orders/orders.sql.js";
import { ordersJson } from "../orders/output.js";
import { sellers } from "../organizations/organizations.sql.js";
import { findPerson } from "../people/people.js";
import { subscriptionsJson } from "../subscriptions/output.js";
import { subscriptions, type SubscriptionRow } from "../subscriptions/subscriptions.sql.js";
import { PurchasedOrderList, PurchasedSubscriptionList } from "./schemas.js";

const TAG = "me";

/**
 * A signed-in Tollgate user's purchases from every seller: what customers with their e-mail bought,
 * once they have verified that address (so nobody sees another's purchases by claiming an e-mail).
 */
export function purchaseEndpoints(billing: Billing): Endpoint[] {
  const { db, config } = billing;

  /** The customers (one per seller at most) that are this user. */
  const customerIdsOf = async (identity: IdentityClaims): Promise<string[]> => {
    if (identity.kind !== "user") throw new HttpError(401, polarErrors.codes.unauthorized, "Sign in to see your purchases.");
    const person = await findPerson(db, identity.user_id);
    if (!person?.email_verified) return [];
    return (await customers(db).where({ email: person.email }).select("id")).map((customer) => customer.id);
  };
  /** Each row with its seller's name and slug, as the user sees purchases from many. */
  const withSeller = async <Row extends { organization_id: string }, Shown extends object>(rows: Row[], shown: Shown[]) => {
    const named = await sellers(db).whereIn("id", [...new Set(rows.map((row) => row.organization_id))]).select("id", "name", "slug");
    return shown.map((item, index) => ({ ...item, organization: named.find((seller) => seller.id === rows[index]?.organization_id) ?? null }));
  };

  return [
    defineEndpoint("/v1/me/orders/", { method: "GET", query: z.object(paging), response: PurchasedOrderList, summary: "List the signed-in user's orders from every seller", tag: TAG }, async ({ query, identity }) => {
      const found = orders(db).whereIn("customer_id", await customerIdsOf(identity));
      const { rows, total } = await pageOf<OrderRow, "created_at">(found, { ...query, sort: [{ property: "created_at", descending: true }], columns: { created_at: "created_at" }, table: "orders" });
      return pageJson(await withSeller(rows, await ordersJson(db, rows)), total, query.limit);
    }),
    defineEndpoint("/v1/me/subscriptions/", { method: "GET", query: z.object(paging), response: PurchasedSubscriptionList, summary: "List the signed-in user's subscriptions to every seller", tag: TAG }, async ({ query, identity }) => {
      const found = subscriptions(db).whereIn("customer_id", await customerIdsOf(identity));
      const { rows, total } = await pageOf<SubscriptionRow, "created_at">(found, { ...query, sort: [{ property: "created_at", descending: true }], columns: { created_at: "created_at" }, table: "subscriptions" });
      return pageJson(await withSeller(rows, await subscriptionsJson(db, rows, config.PUBLIC_URL)), total, query.limit);
    }),
  ];
}
