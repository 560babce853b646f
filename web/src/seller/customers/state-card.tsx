import { useQuery } from "@tanstack/react-query";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { longDate, money } from "../../i18n/format";
import { Card } from "../../ui/components";
import { useSeller } from "../space";
import type { CustomerState, NamedResource } from "./api";
import { namesOf } from "./queries";

const messages = defineMessages({
  title: { id: "seller.customer.state.title", defaultMessage: "What they have now" },
  subscriptions: { id: "seller.customer.state.subscriptions", defaultMessage: "Active subscriptions" },
  noSubscriptions: { id: "seller.customer.state.noSubscriptions", defaultMessage: "No active subscription." },
  subscription: defineMessage<{ product: string; amount: string; interval: string; date: string }>({
    id: "seller.customer.state.subscription",
    defaultMessage: "{product}: {amount} per {interval, select, day {day} week {week} month {month} other {year}}, renews on {date}",
  }),
  subscriptionEnding: defineMessage<{ product: string; amount: string; interval: string; date: string }>({
    id: "seller.customer.state.subscriptionEnding",
    defaultMessage: "{product}: {amount} per {interval, select, day {day} week {week} month {month} other {year}}, ends on {date}",
  }),
  benefits: { id: "seller.customer.state.benefits", defaultMessage: "Granted benefits" },
  noBenefits: { id: "seller.customer.state.noBenefits", defaultMessage: "No benefit granted." },
  benefit: defineMessage<{ benefit: string; date: string }>({ id: "seller.customer.state.benefit", defaultMessage: "{benefit}, since {date}" }),
  meters: { id: "seller.customer.state.meters", defaultMessage: "Meters" },
  noMeters: { id: "seller.customer.state.noMeters", defaultMessage: "No active meter." },
  meter: defineMessage<{ meter: string; consumed: number; balance: number }>({ id: "seller.customer.state.meter", defaultMessage: "{meter}: {consumed, number} used, {balance, number} left" }),
});

/** The names of a seller's products, benefits or meters by id, for lines that only carry ids. */
function useNames(seller: string, resource: NamedResource, wanted: boolean): Map<string, string> {
  const names = useQuery({ ...namesOf(seller, resource), enabled: wanted });
  return new Map((names.data?.items ?? []).map((item) => [item.id, "name" in item ? item.name : item.description]));
}

/** A customer's active subscriptions, granted benefits and meters (Polar's customer state). */
export function CustomerStateCard({ state }: { state: CustomerState }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const products = useNames(seller.id, "products", state.active_subscriptions.length > 0);
  const benefits = useNames(seller.id, "benefits", state.granted_benefits.length > 0);
  const meters = useNames(seller.id, "meters", state.active_meters.length > 0);
  return (
    <Card title={formatMessage(messages.title)}>
      <h3>{formatMessage(messages.subscriptions)}</h3>
      {state.active_subscriptions.length === 0 && <p className="muted">{formatMessage(messages.noSubscriptions)}</p>}
      <ul className="list-plain">
        {state.active_subscriptions.map((subscription) => (
          <li key={subscription.id}>
            {formatMessage(subscription.cancel_at_period_end ? messages.subscriptionEnding : messages.subscription, {
              product: products.get(subscription.product_id) ?? "…",
              amount: money(subscription.amount, subscription.currency),
              interval: subscription.recurring_interval,
              date: subscription.current_period_end ? longDate(subscription.current_period_end) : "—",
            })}
          </li>
        ))}
      </ul>
      <h3>{formatMessage(messages.benefits)}</h3>
      {state.granted_benefits.length === 0 && <p className="muted">{formatMessage(messages.noBenefits)}</p>}
      <ul className="list-plain">
        {state.granted_benefits.map((grant) => (
          <li key={grant.id}>{formatMessage(messages.benefit, { benefit: benefits.get(grant.benefit_id) ?? grant.benefit_type, date: longDate(grant.granted_at) })}</li>
        ))}
      </ul>
      <h3>{formatMessage(messages.meters)}</h3>
      {state.active_meters.length === 0 && <p className="muted">{formatMessage(messages.noMeters)}</p>}
      <ul className="list-plain">
        {state.active_meters.map((meter) => (
          <li key={meter.id}>{formatMessage(messages.meter, { meter: meters.get(meter.meter_id) ?? "…", consumed: meter.consumed_units, balance: meter.balance })}</li>
        ))}
      </ul>
    </Card>
  );
}
