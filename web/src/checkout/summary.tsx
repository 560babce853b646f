import { useId, type ReactNode } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { longDate, money } from "../i18n/format";
import { Markdown } from "../ui/markdown";
import type { Interval, PublicCheckout } from "./api";
import { SellerContact } from "./seller-contact";

const messages = defineMessages({
  summary: { id: "checkout.summary.title", defaultMessage: "Order summary" },
  included: { id: "checkout.summary.included", defaultMessage: "Included" },
  subtotal: { id: "checkout.summary.subtotal", defaultMessage: "Subtotal" },
  discount: defineMessage<{ name: string }>({ id: "checkout.summary.discount", defaultMessage: "Discount ({name})" }),
  tax: { id: "checkout.summary.tax", defaultMessage: "Tax" },
  taxIncluded: { id: "checkout.summary.taxIncluded", defaultMessage: "Tax included" },
  taxLater: { id: "checkout.summary.taxLater", defaultMessage: "Worked out from your country" },
  total: { id: "checkout.summary.total", defaultMessage: "Total" },
  dueToday: { id: "checkout.summary.dueToday", defaultMessage: "Due today" },
  thenFrom: defineMessage<{ amount: string; date: string }>({ id: "checkout.summary.thenFrom", defaultMessage: "Then {amount} from {date}" }),
  trial: defineMessage<{ interval: Interval; count: number }>({
    id: "checkout.summary.trial",
    defaultMessage:
      "{interval, select, day {{count, plural, one {# day free} other {# days free}}} week {{count, plural, one {# week free} other {# weeks free}}} month {{count, plural, one {# month free} other {# months free}}} other {{count, plural, one {# year free} other {# years free}}}}",
  }),
});

/** A recurring amount as checkouts write it: "$19.00 / month", "$50.00 / 3 months". */
export const perInterval = defineMessage<{ price: string; interval: Interval; count: number }>({
  id: "checkout.perInterval",
  defaultMessage:
    "{interval, select, day {{count, plural, one {{price} / day} other {{price} / # days}}} week {{count, plural, one {{price} / week} other {{price} / # weeks}}} month {{count, plural, one {{price} / month} other {{price} / # months}}} other {{count, plural, one {{price} / year} other {{price} / # years}}}}",
});

/** An amount of the checkout's currency, "/ month" after it when the product renews. */
export function useRecurringMoney(checkout: PublicCheckout): (amount: number) => string {
  const { formatMessage } = useIntl();
  const interval = checkout.product?.recurring_interval;
  return (amount) => {
    const price = money(amount, checkout.currency);
    return interval ? formatMessage(perInterval, { price, interval, count: checkout.product?.recurring_interval_count ?? 1 }) : price;
  };
}

/** When a trial that starts now ends, and so when its first charge comes. */
export function trialEndsOn(interval: Interval, count: number, from = new Date()): Date {
  const end = new Date(from);
  if (interval === "day") end.setDate(end.getDate() + count);
  else if (interval === "week") end.setDate(end.getDate() + 7 * count);
  else if (interval === "month") end.setMonth(end.getMonth() + count);
  else end.setFullYear(end.getFullYear() + count);
  return end;
}

/** What is bought, as the seller shows it: its picture, words, the other products offered (`choice`), benefits, and how the price adds up. */
export function OrderSummary({ checkout, title, choice, children }: { checkout: PublicCheckout; title: string; choice?: ReactNode; children?: ReactNode }) {
  const { formatMessage } = useIntl();
  const titleId = useId();
  const { product } = checkout;
  const recurring = useRecurringMoney(checkout);
  const image = product?.medias.find((media) => media.mime_type.startsWith("image/") && media.public_url);
  const trial = checkout.active_trial_interval ? { interval: checkout.active_trial_interval, count: checkout.active_trial_interval_count ?? 1 } : null;
  const amount = (value: number) => money(value, checkout.currency);
  return (
    <section className="checkout-summary" aria-labelledby={titleId}>
      {image && <img className="checkout-media" src={image.public_url} alt={product?.name ?? ""} />}
      <h1 id={titleId}>{title}</h1>
      {product?.description && <Markdown text={product.description} className="muted" />}
      {choice}
      <p className="checkout-price">{recurring(checkout.amount)}</p>
      {trial && <p className="badge checkout-trial">{formatMessage(messages.trial, trial)}</p>}
      {product && product.benefits.length > 0 && (
        <>
          <h2 className="checkout-subheading">{formatMessage(messages.included)}</h2>
          <ul className="checkout-benefits">
            {product.benefits.map((benefit) => (
              <li key={benefit.id}>{benefit.description}</li>
            ))}
          </ul>
        </>
      )}
      <h2 className="sr-only">{formatMessage(messages.summary)}</h2>
      <dl className="checkout-lines">
        <div>
          <dt>{formatMessage(messages.subtotal)}</dt>
          <dd>{amount(checkout.amount)}</dd>
        </div>
        {checkout.discount && checkout.discount_amount > 0 && (
          <div>
            <dt>{formatMessage(messages.discount, { name: checkout.discount.code ?? checkout.discount.name })}</dt>
            <dd>−{amount(checkout.discount_amount)}</dd>
          </div>
        )}
        <div>
          <dt>{formatMessage(checkout.tax_behavior === "inclusive" ? messages.taxIncluded : messages.tax)}</dt>
          <dd>{checkout.tax_amount === null ? formatMessage(messages.taxLater) : amount(checkout.tax_amount)}</dd>
        </div>
        <div className="checkout-total">
          <dt>{formatMessage(messages.total)}</dt>
          <dd>{recurring(checkout.total_amount)}</dd>
        </div>
        {trial && (
          <div className="checkout-total">
            <dt>{formatMessage(messages.dueToday)}</dt>
            <dd>{amount(0)}</dd>
          </div>
        )}
      </dl>
      {trial && <p className="checkout-after-trial">{formatMessage(messages.thenFrom, { amount: recurring(checkout.total_amount), date: longDate(trialEndsOn(trial.interval, trial.count)) })}</p>}
      {children}
      <SellerContact seller={checkout.organization} />
    </section>
  );
}
