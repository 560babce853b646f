import { z } from "zod";
import { defineEndpoint, HttpError, invalidField, pageJson, pageOf, paging, queryFlag, sorting, type Endpoint, type Knex } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import type { Billing } from "../billing.js";
import type { BenefitGrantRow } from "../benefits/grants.js";
import { files } from "../files/files.sql.js";
import { fileJson } from "../files/output.js";
import { licenseKeys, type LicenseKeyRow } from "../license-keys/license-keys.sql.js";
import { licenseKeysJson, licenseKeyWithActivationsJson } from "../license-keys/output.js";
import { orders, type OrderRow } from "../orders/orders.sql.js";
import { ordersJson } from "../orders/output.js";
import { findSeller } from "../organizations/organizations.sql.js";
import { productsJson } from "../products/output.js";
import { products } from "../products/products.sql.js";
import { sellerJson } from "../organizations/output.js";
import { cancelAtPeriodEnd, uncancel, useCardForSubscriptions } from "../subscriptions/lifecycle.js";
import { subscriptionsJson } from "../subscriptions/output.js";
import { CANCELLATION_REASONS, subscriptions, type SubscriptionRow } from "../subscriptions/subscriptions.sql.js";
import { sellerNow } from "../test-clock/clock.js";
import { customerOf, mine, portalOrganization } from "./portal.js";
import { LicenseKeyList, LicenseKeyWithActivations } from "../license-keys/schemas.js";
import { customerOrderJson, customerSubscriptionJson } from "./output.js";
import { CustomerOrder, CustomerOrderList, CustomerPaymentMethodCreateSucceededResponse, CustomerSubscription, CustomerSubscriptionList, DownloadableList } from "./schemas.js";

const DOWNLOAD_URL_TTL_MS = 60 * 60 * 1000;
const ORDER_SORTABLE = { created_at: "created_at" } as const;
const SUBSCRIPTION_SORTABLE = { started_at: "started_at", created_at: "created_at" } as const;
const TAG = "customer_portal";

const subscriptionUpdate = z.object({
  cancel_at_period_end: z.boolean().optional(),
  cancellation_reason: z.enum(CANCELLATION_REASONS).nullish(),
  cancellation_comment: z.string().max(1_000).nullish(),
  product_id: z.string().optional(),
  seats: z.unknown().optional(),
});

/**
 * The customer portal's API, for a customer session (`polar_cst_…`): the customer's orders,
 * subscriptions (cancelled and resumed when the seller lets customers change them) and
 * license keys, downloadables and cards (profile.ts and benefit-grants.ts hold the rest). Products come with their seller, as Polar's portal shows them.
 */
export function customerPortalEndpoints(billing: Billing): Endpoint[] {
  const { db, config } = billing;
  const publicUrl = config.PUBLIC_URL;

  const customerOrders = async (organizationId: string, rows: OrderRow[]) => {
    const [organization, shown, bought] = await Promise.all([
      portalOrganization(db, organizationId),
      ordersJson(db, rows),
      products(db).whereIn("id", rows.flatMap((order) => (order.product_id ? [order.product_id] : []))).then((found) => productsJson(db, found, publicUrl)),
    ]);
    return shown.map((order) => customerOrderJson(order, bought.find((candidate) => candidate.id === order.product_id), organization));
  };
  const customerSubscriptions = async (organizationId: string, rows: SubscriptionRow[]) => {
    const organization = await portalOrganization(db, organizationId);
    return (await subscriptionsJson(db, rows, publicUrl)).map((subscription) => customerSubscriptionJson(subscription, organization));
  };
  const changeSubscription = (identity: IdentityClaims, id: string, change: (trx: Knex.Transaction, subscription: SubscriptionRow, now: Date) => Promise<SubscriptionRow>) => {
    const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
    return db.transaction(async (trx) => {
      const subscription = mine(await subscriptions(trx).where({ id, customer_id: customerId }).forUpdate().first(), "Subscription");
      if (subscription.ended_at !== null || subscription.status === "canceled") throw new HttpError(403, "AlreadyCanceledSubscription", "This subscription is already canceled.");
      const seller = await findSeller(trx, organizationId);
      if (seller && !sellerJson(seller).subscription_settings.allow_customer_updates) throw new HttpError(403, "NotPermitted", "This seller does not let customers change their subscriptions here.");
      const changed = await change(trx, subscription, await sellerNow(trx, organizationId));
      const [json] = await customerSubscriptions(organizationId, [changed]);
      return json;
    });
  };

  return [
    defineEndpoint(
      "/v1/customer-portal/customers/me/payment-methods",
      {
        method: "POST",
        status: 201,
        body: z.object({ confirmation_token_id: z.string(), set_default: z.boolean(), return_url: z.string().optional() }),
        response: CustomerPaymentMethodCreateSucceededResponse,
        summary: "Save a card for the customer",
        tag: TAG,
      },
      async ({ body, identity }) => {
        const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
        const saved = await billing.processor.saveCard({ idempotencyKey: `card:${customerId}:${body.confirmation_token_id}`, confirmationTokenId: body.confirmation_token_id });
        if (saved.status === "declined") throw invalidField(["confirmation_token_id"], saved.message, body.confirmation_token_id);
        const method = await db.transaction(async (trx) => {
          const [row] = await trx<{ id: string; customer_id: string; card: string; created_at: Date; modified_at: Date | null }>("customer_payment_methods")
            .insert({ id: saved.paymentMethodId, customer_id: customerId, card: JSON.stringify(saved.card) })
            .onConflict("id")
            .merge()
            .returning("*");
          if (body.set_default) {
            await trx("customers").where({ id: customerId }).update({ default_payment_method_id: saved.paymentMethodId, modified_at: new Date() });
            if ((await useCardForSubscriptions(trx, customerId, saved.paymentMethodId, await sellerNow(trx, organizationId))) > 0) trx.executionPromise.then(() => billing.wakeRenewals(), () => undefined);
          }
          return row;
        });
        if (!method) throw new Error("the card was not recorded");
        return {
          status: "succeeded",
          payment_method: { id: method.id, created_at: method.created_at, modified_at: method.modified_at, processor: "stripe", customer_id: customerId, type: "card", method_metadata: saved.card },
        };
      },
    ),

    defineEndpoint(
      "/v1/customer-portal/orders/",
      { method: "GET", query: z.object({ ...paging, sorting: sorting(["created_at"], "-created_at") }), response: CustomerOrderList, summary: "List the customer's orders", tag: TAG },
      async ({ query, identity }) => {
        const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
        const { rows, total } = await pageOf<OrderRow, keyof typeof ORDER_SORTABLE>(orders(db).where({ customer_id: customerId }), { ...query, sort: query.sorting, columns: ORDER_SORTABLE, table: "orders" });
        return pageJson(await customerOrders(organizationId, rows), total, query.limit);
      },
    ),
    defineEndpoint("/v1/customer-portal/orders/:id", { method: "GET", params: z.object({ id: z.string() }), response: CustomerOrder, summary: "Get one of the customer's orders", tag: TAG }, async ({ params, identity }) => {
      const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
      const [json] = await customerOrders(organizationId, [mine(await orders(db).where({ id: params.id, customer_id: customerId }).first(), "Order")]);
      return json;
    }),

    defineEndpoint(
      "/v1/customer-portal/subscriptions/",
      {
        method: "GET",
        query: z.object({ ...paging, active: queryFlag().optional(), sorting: sorting(["started_at", "created_at"], "-started_at") }),
        response: CustomerSubscriptionList,
        summary: "List the customer's subscriptions",
        tag: TAG,
      },
      async ({ query, identity }) => {
        const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
        const found = subscriptions(db).where({ customer_id: customerId });
        if (query.active !== undefined) void (query.active ? found.whereIn("status", ["active", "trialing", "past_due"]) : found.whereNotIn("status", ["active", "trialing", "past_due"]));
        const { rows, total } = await pageOf<SubscriptionRow, keyof typeof SUBSCRIPTION_SORTABLE>(found, { ...query, sort: query.sorting, columns: SUBSCRIPTION_SORTABLE, table: "subscriptions" });
        return pageJson(await customerSubscriptions(organizationId, rows), total, query.limit);
      },
    ),
    defineEndpoint("/v1/customer-portal/subscriptions/:id", { method: "GET", params: z.object({ id: z.string() }), response: CustomerSubscription, summary: "Get one of the customer's subscriptions", tag: TAG }, async ({ params, identity }) => {
      const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
      const [json] = await customerSubscriptions(organizationId, [mine(await subscriptions(db).where({ id: params.id, customer_id: customerId }).first(), "Subscription")]);
      return json;
    }),
    defineEndpoint(
      "/v1/customer-portal/subscriptions/:id",
      { method: "PATCH", params: z.object({ id: z.string() }), body: subscriptionUpdate, response: CustomerSubscription, summary: "Cancel or resume one of the customer's subscriptions", tag: TAG },
      async ({ params, body, identity }) => {
        if (body.product_id !== undefined || body.seats !== undefined) throw new HttpError(403, "NotPermitted", "Changing plans from the portal is not offered yet.");
        return changeSubscription(identity, params.id, async (trx, subscription, now) => {
          if (body.cancel_at_period_end === true && !subscription.cancel_at_period_end) return cancelAtPeriodEnd(billing, trx, subscription, now, body.cancellation_reason ?? null, body.cancellation_comment ?? null);
          if (body.cancel_at_period_end === false && subscription.cancel_at_period_end) return uncancel(billing, trx, subscription);
          return subscription;
        });
      },
    ),
    defineEndpoint("/v1/customer-portal/subscriptions/:id", { method: "DELETE", params: z.object({ id: z.string() }), response: CustomerSubscription, summary: "Cancel one of the customer's subscriptions", tag: TAG }, async ({ params, identity }) =>
      changeSubscription(identity, params.id, async (trx, subscription, now) => {
        if (subscription.cancel_at_period_end) throw new HttpError(403, "AlreadyCanceledSubscription", "This subscription is already canceled.");
        return cancelAtPeriodEnd(billing, trx, subscription, now, null, null);
      }),
    ),

    defineEndpoint(
      "/v1/customer-portal/downloadables/",
      { method: "GET", query: z.object({ ...paging, benefit_id: z.string().optional() }), response: DownloadableList, summary: "List the files the customer's grants give them", tag: TAG },
      async ({ query, identity }) => {
        const grants = await db<BenefitGrantRow>("benefit_grants")
          .join("benefits", "benefits.id", "benefit_grants.benefit_id")
          .where({ "benefit_grants.customer_id": customerOf(identity).customer_id, "benefits.type": "downloadables" })
          .whereNotNull("benefit_grants.granted_at")
          .whereNull("benefit_grants.revoked_at")
          .modify((found) => void (query.benefit_id && found.where("benefit_grants.benefit_id", query.benefit_id)))
          .select<BenefitGrantRow[]>("benefit_grants.*");
        // Only while a grant lasts: each URL works for an hour.
        const expiresAt = new Date(Date.now() + DOWNLOAD_URL_TTL_MS);
        const granted = grants.flatMap((grant) => ((grant.properties as { files?: string[] }).files ?? []).map((fileId) => ({ grant, fileId })));
        const found = await files(db).whereIn("id", granted.map(({ fileId }) => fileId)).where({ is_uploaded: true });
        const items = await Promise.all(
          granted.flatMap(({ grant, fileId }) => {
            const file = found.find((candidate) => candidate.id === fileId);
            if (!file) return [];
            return [billing.storage.downloadUrl(file, expiresAt).then(({ url, headers }) => ({ id: `${grant.id}_${file.id}`, benefit_id: grant.benefit_id, file: { ...fileJson(file, publicUrl), download: { url, headers, expires_at: expiresAt } } }))];
          }),
        );
        const start = (query.page - 1) * query.limit;
        return pageJson(items.slice(start, start + query.limit), items.length, query.limit);
      },
    ),

    defineEndpoint(
      "/v1/customer-portal/license-keys/",
      { method: "GET", query: z.object({ ...paging, benefit_id: z.string().optional() }), response: LicenseKeyList, summary: "List the customer's license keys", tag: TAG },
      async ({ query, identity }) => {
        const found = licenseKeys(db).where({ customer_id: customerOf(identity).customer_id });
        if (query.benefit_id) void found.where({ benefit_id: query.benefit_id });
        const { rows, total } = await pageOf<LicenseKeyRow, "created_at">(found, { ...query, sort: [{ property: "created_at", descending: true }], columns: { created_at: "created_at" }, table: "license_keys" });
        return pageJson(await licenseKeysJson(db, rows), total, query.limit);
      },
    ),
    defineEndpoint("/v1/customer-portal/license-keys/:id", { method: "GET", params: z.object({ id: z.string() }), response: LicenseKeyWithActivations, summary: "Get one of the customer's license keys", tag: TAG }, async ({ params, identity }) =>
      licenseKeyWithActivationsJson(db, mine(await licenseKeys(db).where({ id: params.id, customer_id: customerOf(identity).customer_id }).first(), "License key")),
    ),
  ];
}
