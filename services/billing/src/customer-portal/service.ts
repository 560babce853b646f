import { HttpError, invalidField, notFound, type Knex, type UnitOfWork, type Units } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { benefitsWithIds, type BenefitGrantRow } from "../benefits/benefits.sql.js";
import { findCustomer, setDefaultPaymentMethod } from "../customers/customers.sql.js";
import type { OrderRow } from "../orders/orders.sql.js";
import { shownOrders } from "../orders/service.js";
import { findSeller } from "../organizations/organizations.sql.js";
import { sellerJson } from "../organizations/output.js";
import { savePaymentMethod } from "../payments/payments.sql.js";
import type { PaymentProcessor } from "../payments/processor.js";
import { productsWithParts } from "../products/products.sql.js";
import { changeWhenNotRenewing, shownSubscriptions, type SubscriptionConfig } from "../subscriptions/service.js";
import { findCustomersSubscription, useCard, type SubscriptionRow } from "../subscriptions/subscriptions.sql.js";
import { sellerNow } from "../test-clock/clock.js";
import { customerGrantJson, customerOrderJson, customerSubscriptionJson } from "./output.js";
import { customerOf, mine, portalOrganization } from "./portal.js";

/** What the customer portal works with. */
export interface PortalDesk {
  db: Knex;
  units: Units;
  config: SubscriptionConfig;
  processor: PaymentProcessor;
  /** Asks the renewal worker to look at the customer's past-due subscriptions now that they have a card. */
  wakeRenewals: () => void;
}

/** The customer's orders as they see them, each product with its seller. */
export async function customerOrders({ db, config }: Pick<PortalDesk, "db" | "config">, organizationId: string, rows: OrderRow[]) {
  const [organization, shown, bought] = await Promise.all([
    portalOrganization(db, organizationId),
    shownOrders(db, rows),
    productsWithParts(db, rows.flatMap((order) => (order.product_id ? [order.product_id] : []))),
  ]);
  return shown.map((order) => customerOrderJson(order, bought.find((candidate) => candidate.id === order.product_id), organization, config.PUBLIC_URL));
}

/** The customer's subscriptions as they see them. */
export async function customerSubscriptions({ db, config }: Pick<PortalDesk, "db" | "config">, organizationId: string, rows: SubscriptionRow[]) {
  const organization = await portalOrganization(db, organizationId);
  return (await shownSubscriptions(db, rows, config.PUBLIC_URL)).map((subscription) => customerSubscriptionJson(subscription, organization));
}

/**
 * A change the customer makes to one of their running subscriptions, under a lock on it and once no
 * renewal is in flight for it, when the seller lets customers change theirs; the subscription as the
 * customer now sees it.
 */
export function changeSubscription(desk: PortalDesk, identity: IdentityClaims, id: string, change: (unit: UnitOfWork, subscription: SubscriptionRow, now: Date) => Promise<SubscriptionRow>) {
  const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
  const locked = async (db: Knex) => mine(await findCustomersSubscription(db, id, customerId, true), "Subscription");
  return changeWhenNotRenewing(desk.units, locked, async (unit, subscription) => {
    if (subscription.ended_at !== null || subscription.status === "canceled") throw new HttpError(403, "AlreadyCanceledSubscription", "This subscription is already canceled.");
    const seller = await findSeller(unit.db, organizationId);
    if (seller && !sellerJson(seller).subscription_settings.allow_customer_updates) throw new HttpError(403, "NotPermitted", "This seller does not let customers change their subscriptions here.");
    const changed = await change(unit, subscription, await sellerNow(unit.db, organizationId));
    const [json] = await customerSubscriptions({ db: unit.db, config: desk.config }, organizationId, [changed]);
    return json;
  });
}

/**
 * Keeps a card the customer gave for later charges; made their default, it is the card their
 * running subscriptions renew with, and past-due ones are tried again with it at once.
 */
export async function saveCustomerCard(desk: PortalDesk, identity: IdentityClaims, request: { confirmation_token_id: string; set_default: boolean }) {
  const { customer_id: customerId, organization_id: organizationId } = customerOf(identity);
  const saved = await desk.processor.saveCard({ idempotencyKey: `card:${customerId}:${request.confirmation_token_id}`, confirmationTokenId: request.confirmation_token_id });
  if (saved.status === "declined") throw invalidField(["confirmation_token_id"], saved.message, request.confirmation_token_id);
  const method = await desk.units.run(async (unit) => {
    const row = await savePaymentMethod(unit.db, { id: saved.paymentMethodId, customer_id: customerId, card: saved.card });
    if (request.set_default) {
      await setDefaultPaymentMethod(unit.db, customerId, saved.paymentMethodId);
      if ((await useCard(unit.db, customerId, saved.paymentMethodId, await sellerNow(unit.db, organizationId))) > 0) unit.afterCommit(desk.wakeRenewals);
    }
    return row;
  });
  return {
    status: "succeeded" as const,
    payment_method: { id: method.id, created_at: method.created_at, modified_at: method.modified_at, processor: "stripe" as const, customer_id: customerId, type: "card" as const, method_metadata: saved.card },
  };
}

/** The customer's grants as the portal lists them, read with their benefits (deleted ones too), the customer and the seller. */
export async function customerGrants(db: Knex, customerId: string, organizationId: string, grants: BenefitGrantRow[]) {
  const [customer, organization, benefits] = await Promise.all([findCustomer(db, customerId), portalOrganization(db, organizationId), benefitsWithIds(db, grants.map((grant) => grant.benefit_id))]);
  if (!customer) throw notFound("Customer");
  const benefitById = new Map(benefits.map((benefit) => [benefit.id, benefit]));
  return grants.flatMap((grant) => {
    const benefit = benefitById.get(grant.benefit_id);
    return benefit ? [customerGrantJson(grant, benefit, customer, organization)] : [];
  });
}
