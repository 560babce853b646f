import { defineMessage, defineMessages, useIntl } from "react-intl";
import type { Price, Product } from "../api/wire";
import { money } from "../i18n/format";
import { pricePerInterval } from "./price-messages";

const messages = defineMessages({
  free: { id: "seller.price.free", defaultMessage: "Free" },
  custom: defineMessage<{ minimum: string }>({ id: "seller.price.custom", defaultMessage: "Pay what you want, from {minimum}" }),
  metered: defineMessage<{ amount: string; meter: string }>({ id: "seller.price.metered", defaultMessage: "{amount} per unit of {meter}" }),
  perSeat: defineMessage<{ amount: string; kind: "tiered" | "flat" }>({ id: "seller.price.perSeat", defaultMessage: "{kind, select, tiered {From {amount} per seat} other {{amount} per seat}}" }),
  none: { id: "seller.price.none", defaultMessage: "No price" },
});

/** What a price list needs of a product: the seller's, or the one a checkout offers. */
type Priced = Pick<Product, "recurring_interval" | "recurring_interval_count"> & { prices: Price[] };

/** A product's prices in words, in the price's currency: "$19.00 a month", "Free". */
export function PriceLabel({ product }: { product: Priced }) {
  const { formatMessage } = useIntl();
  const describe = (price: Price) => {
    switch (price.amount_type) {
      case "fixed":
        return money(price.price_amount, price.price_currency);
      case "custom":
        return formatMessage(messages.custom, { minimum: money(price.minimum_amount, price.price_currency) });
      case "free":
        return formatMessage(messages.free);
      case "metered_unit":
        return formatMessage(messages.metered, { amount: money(Number(price.unit_amount), price.price_currency), meter: price.meter.name });
      case "seat_based": {
        const { tiers } = price.seat_tiers;
        const least = Math.min(...tiers.map((tier) => tier.price_per_seat));
        return formatMessage(messages.perSeat, { amount: money(least, price.price_currency), kind: tiers.length > 1 ? "tiered" : "flat" });
      }
    }
  };
  const shown = product.prices.filter((price) => !price.is_archived).map(describe);
  if (shown.length === 0) return <>{formatMessage(messages.none)}</>;
  const price = shown.join(" + ");
  if (!product.recurring_interval) return <>{price}</>;
  return <>{formatMessage(pricePerInterval, { price, interval: product.recurring_interval, count: product.recurring_interval_count ?? 1 })}</>;
}

const trialLength = defineMessage<{ interval: string; count: number }>({
  id: "seller.product.trialBadge",
  defaultMessage:
    "{interval, select, day {{count, plural, one {#-day trial} other {#-day trial}}} week {{count, plural, one {#-week trial} other {#-week trial}}} month {{count, plural, one {#-month trial} other {#-month trial}}} other {{count, plural, one {#-year trial} other {#-year trial}}}}",
});

/** A product's free trial as a badge ("14-day trial"); nothing for a product without one. */
export function TrialBadge({ product }: { product: Product }) {
  const { formatMessage } = useIntl();
  if (!product.trial_interval || !product.trial_interval_count) return null;
  return <span className="badge">{formatMessage(trialLength, { interval: product.trial_interval, count: product.trial_interval_count })}</span>;
}
