import type { OrderJson } from "../orders/output.js";
import { publicProductJson, type ProductJson } from "../products/output.js";
import type { subscriptionsJson } from "../subscriptions/output.js";

type SubscriptionJson = Awaited<ReturnType<typeof subscriptionsJson>>[number];

const withoutMetadata = <Shown extends { metadata: unknown }>({ metadata: _metadata, ...rest }: Shown) => rest;

/** A product as the customer's portal shows it, with the seller it is from (Polar's CustomerOrderProduct). */
const portalProductJson = <Organization>(product: ProductJson, organization: Organization) => ({ ...publicProductJson(product), organization });

/**
 * An order as its customer sees it (Polar's CustomerOrder): without what is the seller's own — their
 * metadata, fees, discount bookkeeping, form answers and customer record.
 */
export function customerOrderJson<Organization>(order: OrderJson, product: ProductJson | undefined, organization: Organization) {
  const { metadata: _metadata, custom_field_data: _fields, customer: _customer, discount: _discount, platform_fee_amount: _fee, platform_fee_currency: _feeCurrency, subscription, ...shown } = order;
  return { ...shown, subscription: subscription ? withoutMetadata(subscription) : null, product: product ? portalProductJson(product, organization) : null, next_payment_attempt_at: null };
}

/** A subscription as its customer sees it (Polar's CustomerSubscription), without what is the seller's own. */
export function customerSubscriptionJson<Organization>(subscription: SubscriptionJson, organization: Organization) {
  const { metadata: _metadata, custom_field_data: _fields, customer: _customer, discount: _discount, ...shown } = subscription;
  return { ...shown, product: portalProductJson(subscription.product, organization) };
}
