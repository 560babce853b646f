import { z } from "zod";
import { defineEndpoint, HttpError, invalidField, pageJson, pageOf, paging, queryFlag, reachable, repeated, sorting, whereAnyOf, type Endpoint, type Knex, pgInteger } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import type { Billing } from "../billing.js";
import { metadataFilters, whereMetadata } from "../api/metadata.js";
import { sellerNow } from "../test-clock/clock.js";
import { cancelAtPeriodEnd, changeDiscount, changePeriodEnd, changeProduct, changeTrial, revoke, uncancel } from "./lifecycle.js";
import { amountFor, discountProblem } from "../checkouts/pricing.js";
import { findDiscount } from "../discounts/discounts.sql.js";
import { chosenPrice } from "../checkouts/revise.js";
import { findSeller } from "../organizations/organizations.sql.js";
import { subscriptionSettingsOf } from "../organizations/output.js";
import { productsWithParts } from "../products/products.sql.js";
import { subscriptionJson, subscriptionsJson } from "./output.js";
import { Subscription, SubscriptionList } from "./schemas.js";
import { CANCELLATION_REASONS, findSubscription, subscriptions, type SubscriptionRow } from "./subscriptions.sql.js";

const SORTABLE = { created_at: "created_at", started_at: "started_at", current_period_end: "current_period_end", status: "status", amount: "amount" } as const;
const LIVE = ["trialing", "active", "past_due"] as const;
const TAG = "subscriptions";

const cancellation = {
  customer_cancellation_reason: z.enum(CANCELLATION_REASONS).nullish(),
  customer_cancellation_comment: z.string().max(1_000).nullish(),
};

const moment = z.iso.datetime({ offset: true }).transform((value) => new Date(value));

/** Polar's SubscriptionUpdate: one kind of change per call, told apart by its fields. */
const updateBody = z.object({
  ...cancellation,
  cancel_at_period_end: z.boolean().optional(),
  revoke: z.literal(true).optional(),
  product_id: z.string().optional(),
  proration_behavior: z.enum(["invoice", "prorate", "next_period", "reset"]).nullish(),
  discount_id: z.string().nullish(),
  trial_end: z.union([z.literal("now"), moment]).optional(),
  current_billing_period_end: moment.optional(),
  seats: pgInteger().min(1).optional(),
});

export function subscriptionEndpoints(billing: Billing): Endpoint[] {
  const { db, access, config } = billing;
  const publicUrl = config.PUBLIC_URL;

  /** Changes a subscription with its row locked, so a renewal running now sees the change or precedes it. */
  const locked = async (identity: IdentityClaims, id: string, change: (trx: Knex.Transaction, subscription: SubscriptionRow, now: Date) => Promise<SubscriptionRow>) => {
    const reached = await reachable(access, identity, "subscriptions:write", await findSubscription(db, id), "Subscription");
    return db.transaction(async (trx) => {
      const subscription = await subscriptions(trx).where({ id: reached.id }).forUpdate().first();
      if (!subscription) throw new Error(`subscription ${reached.id} is gone`);
      const changed = await change(trx, subscription, await sellerNow(trx, subscription.organization_id));
      return subscriptionJson(trx, changed, publicUrl);
    });
  };
  const stillRunning = (subscription: SubscriptionRow) => {
    if (subscription.ended_at !== null) throw invalidField(["id"], "This subscription has ended", subscription.id);
  };

  return [
    defineEndpoint(
      "/v1/subscriptions/",
      {
        method: "GET",
        query: z.object({
          ...paging,
          organization_id: repeated(z.string()),
          product_id: repeated(z.string()),
          customer_id: repeated(z.string()),
          discount_id: repeated(z.string()),
          active: queryFlag().optional(),
          sorting: sorting(Object.keys(SORTABLE) as (keyof typeof SORTABLE)[], "-started_at"),
        }),
        response: SubscriptionList,
        summary: "List subscriptions",
        tag: TAG,
      },
      async ({ query, identity, req }) => {
        const found = subscriptions(db).whereIn("organization_id", await access.organizationIds(identity, "subscriptions:read"));
        whereAnyOf(found, query, ["organization_id", "product_id", "customer_id", "discount_id"]);
        if (query.active === true) void found.whereIn("status", LIVE);
        if (query.active === false) void found.whereNotIn("status", LIVE);
        whereMetadata(found, "metadata", metadataFilters(req));
        const { rows, total } = await pageOf<SubscriptionRow, keyof typeof SORTABLE>(found, { ...query, sort: query.sorting, columns: SORTABLE, table: "subscriptions" });
        return pageJson(await subscriptionsJson(db, rows, publicUrl), total, query.limit);
      },
    ),

    defineEndpoint("/v1/subscriptions/:id", { method: "GET", params: z.object({ id: z.string() }), response: Subscription, summary: "Get a subscription", tag: TAG }, async ({ params, identity }) =>
      subscriptionJson(db, await reachable(access, identity, "subscriptions:read", await findSubscription(db, params.id), "Subscription"), publicUrl),
    ),

    defineEndpoint("/v1/subscriptions/:id", { method: "PATCH", params: z.object({ id: z.string() }), body: updateBody, response: Subscription, summary: "Update a subscription", tag: TAG }, async ({ params, body, identity }) => {
      if (body.seats !== undefined) throw new HttpError(400, "NotASeatBasedSubscription", "This subscription does not support seat-based pricing.");
      if (body.discount_id !== undefined) {
        const discountId = body.discount_id;
        return locked(identity, params.id, async (trx, subscription, now) => {
          stillRunning(subscription);
          if (discountId === null) return changeDiscount(billing, trx, subscription, null);
          const discount = await findDiscount(trx, discountId);
          const problem = discount?.organization_id === subscription.organization_id ? await discountProblem(trx, discount, subscription.product_id, subscription.currency, now) : "Discount does not exist.";
          if (problem) throw invalidField(["discount_id"], problem, discountId);
          if (discountId === subscription.discount_id) throw invalidField(["discount_id"], "This discount is already applied to the subscription.", discountId);
          return changeDiscount(billing, trx, subscription, discount ?? null);
        });
      }
      if (body.trial_end !== undefined) {
        const trialEnd = body.trial_end;
        return locked(identity, params.id, async (trx, subscription, now) => changeTrial(billing, trx, subscription, trialEnd, now));
      }
      if (body.current_billing_period_end !== undefined) {
        const end = body.current_billing_period_end;
        return locked(identity, params.id, async (trx, subscription, now) => changePeriodEnd(billing, trx, subscription, end, now));
      }
      if (body.product_id !== undefined) {
        const productId = body.product_id;
        return locked(identity, params.id, async (trx, subscription, now) => {
          stillRunning(subscription);
          const [product] = await productsWithParts(trx, [productId]);
          if (!product || product.organization_id !== subscription.organization_id || product.is_archived) throw invalidField(["product_id"], "Product not found or archived", productId);
          if (product.recurring_interval === null) throw invalidField(["product_id"], "A subscription moves to a recurring product only", productId);
          const price = chosenPrice(product, subscription.currency, null, ["product_id"]);
          const seller = await findSeller(trx, subscription.organization_id);
          const behaviour = body.proration_behavior ?? (seller ? subscriptionSettingsOf(seller).proration_behavior : "prorate");
          if (behaviour !== "invoice" && behaviour !== "prorate") throw invalidField(["proration_behavior"], "Only invoice and prorate are offered", behaviour);
          return changeProduct(billing, trx, subscription, { product, price, amount: amountFor(price, null, ["product_id"]), behaviour, now });
        });
      }
      const reason = body.customer_cancellation_reason ?? null;
      const comment = body.customer_cancellation_comment ?? null;
      return locked(identity, params.id, async (trx, subscription, now) => {
        stillRunning(subscription);
        if (body.revoke) return revoke(billing, trx, subscription, now, reason ?? subscription.customer_cancellation_reason, comment ?? subscription.customer_cancellation_comment);
        if (body.cancel_at_period_end === true && !subscription.cancel_at_period_end) return cancelAtPeriodEnd(billing, trx, subscription, now, reason, comment);
        if (body.cancel_at_period_end === false && subscription.cancel_at_period_end) return uncancel(billing, trx, subscription);
        if (body.cancel_at_period_end === undefined) throw invalidField(["cancel_at_period_end"], "Say what to change: cancel_at_period_end or revoke", null);
        return subscription;
      });
    }),

    defineEndpoint("/v1/subscriptions/:id", { method: "DELETE", params: z.object({ id: z.string() }), response: Subscription, summary: "Revoke a subscription now", tag: TAG }, async ({ params, identity }) =>
      locked(identity, params.id, async (trx, subscription, now) => {
        stillRunning(subscription);
        return revoke(billing, trx, subscription, now);
      }),
    ),
  ];
}
