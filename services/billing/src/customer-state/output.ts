import type { BenefitGrantRow } from "../benefits/benefits.sql.js";
import { rowsFromJson } from "../db/json-rows.js";
import type { CustomerMeterRow } from "../customer-meters/customer-meters.sql.js";
import type { PriceRow } from "../products/prices.js";
import { subscriptionFieldsJson, subscriptionMeterFieldsJson } from "../subscriptions/output.js";
import type { SubscriptionRow } from "../subscriptions/subscriptions.sql.js";
import type { CustomerWithHoldings } from "../customers/customers.sql.js";
import { customerJson } from "../customers/output.js";

type GrantWithBenefit = BenefitGrantRow & { benefit_type: string; benefit_metadata: Record<string, unknown> };

/** Everything a customer has now, as Polar's CustomerState: their active subscriptions, granted benefits and meters. */
export function customerStateJson({ grants, subscriptions, metered_prices: meteredPrices, meters: standings, ...customer }: CustomerWithHoldings) {
  const live = rowsFromJson<SubscriptionRow>(subscriptions, ["current_period_start", "current_period_end", "trial_start", "trial_end", "canceled_at", "started_at", "ends_at", "ended_at", "created_at", "modified_at"]);
  const meters = rowsFromJson<CustomerMeterRow>(standings, ["created_at", "modified_at"]);
  const prices = rowsFromJson<PriceRow>(meteredPrices, ["created_at", "modified_at"]);
  /** The subscription's standing on each meter its product's metered prices bill. */
  const metersOf = (subscription: SubscriptionRow) =>
    prices.flatMap((price) => {
      const standing = meters.find((meter) => meter.meter_id === price.meter_id);
      return price.product_id === subscription.product_id && price.price_currency === subscription.currency && standing ? [subscriptionMeterFieldsJson(price, standing)] : [];
    });
  return {
    ...customerJson(customer),
    active_subscriptions: live.map((subscription) => {
      const { id, created_at, modified_at, metadata, status, amount, currency, recurring_interval, current_period_start, current_period_end, trial_start, trial_end, cancel_at_period_end, canceled_at, started_at, ends_at, product_id, discount_id, seats } =
        subscriptionFieldsJson(subscription);
      return { id, created_at, modified_at, custom_field_data: subscription.custom_field_data, metadata, status, amount, currency, recurring_interval, current_period_start, current_period_end, trial_start, trial_end, cancel_at_period_end, canceled_at, started_at, ends_at, product_id, discount_id, seats, units: null, meters: metersOf(subscription) };
    }),
    granted_benefits: rowsFromJson<GrantWithBenefit>(grants, ["granted_at", "created_at", "modified_at"]).map((grant) => ({
      id: grant.id,
      created_at: grant.created_at,
      modified_at: grant.modified_at,
      granted_at: grant.granted_at,
      benefit_id: grant.benefit_id,
      benefit_type: grant.benefit_type,
      benefit_metadata: grant.benefit_metadata,
      properties: grant.properties,
    })),
    active_meters: meters.map((meter) => ({
      id: meter.id,
      created_at: meter.created_at,
      modified_at: meter.modified_at,
      meter_id: meter.meter_id,
      consumed_units: meter.consumed_units,
      credited_units: meter.credited_units,
      balance: meter.credited_units - meter.consumed_units,
    })),
  };
}
