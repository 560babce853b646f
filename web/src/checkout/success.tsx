import { defineMessage, defineMessages, useIntl } from "react-intl";
import { money } from "../i18n/format";
import { Alert } from "../ui/components";
import { successRedirectOf, type PublicCheckout } from "./api";
import { PurchasedBenefits } from "./purchased";
import { SellerContact } from "./seller-contact";
import { useRecurringMoney } from "./summary";

const messages = defineMessages({
  thankYou: { id: "checkout.thankYou", defaultMessage: "Thank you!" },
  paid: defineMessage<{ amount: string; seller: string; email: string }>({
    id: "checkout.paid",
    defaultMessage: "Your payment of {amount} to {seller} went through. A receipt is on its way to {email}.",
  }),
  paidNoEmail: defineMessage<{ amount: string; seller: string }>({
    id: "checkout.paidNoEmail",
    defaultMessage: "Your payment of {amount} to {seller} went through. A receipt is on its way to you.",
  }),
  trialStarted: defineMessage<{ amount: string; seller: string }>({
    id: "checkout.success.trialStarted",
    defaultMessage: "Your free trial has started and nothing was charged today. {seller} will charge {amount} when it ends, unless you cancel before then.",
  }),
  free: defineMessage<{ seller: string }>({ id: "checkout.success.free", defaultMessage: "It is free: {seller} charged you nothing." }),
  bought: defineMessage<{ product: string }>({ id: "checkout.success.bought", defaultMessage: "{product} is yours." }),
  continue: defineMessage<{ seller: string }>({ id: "checkout.success.continue", defaultMessage: "Continue to {seller}" }),
});

/** A paid checkout: what was bought, what was charged (nothing yet for a trial), the way on to the seller's own success page if it has one, and how to reach the seller. */
export function CheckoutSuccess({ checkout }: { checkout: PublicCheckout }) {
  const { formatMessage } = useIntl();
  const seller = checkout.organization.name;
  const amount = money(checkout.total_amount, checkout.currency);
  const recurring = useRecurringMoney(checkout);
  const next = successRedirectOf(checkout);
  const outcome = checkout.active_trial_interval
    ? formatMessage(messages.trialStarted, { amount: recurring(checkout.total_amount), seller })
    : checkout.total_amount === 0
      ? formatMessage(messages.free, { seller })
      : checkout.customer_email
        ? formatMessage(messages.paid, { amount, seller, email: checkout.customer_email })
        : formatMessage(messages.paidNoEmail, { amount, seller });
  return (
    <section className="checkout-success">
      <span className="checkout-success-mark" aria-hidden="true">
        <svg viewBox="0 0 24 24" width="24" height="24">
          <path d="M5 12.5l4.5 4.5L19 7.5" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </span>
      <h1>{formatMessage(messages.thankYou)}</h1>
      {checkout.product && <p className="checkout-price">{formatMessage(messages.bought, { product: checkout.product.name })}</p>}
      <Alert tone="success">{outcome}</Alert>
      {next && (
        <a className="button button-primary" href={next}>
          {formatMessage(messages.continue, { seller })}
        </a>
      )}
      <PurchasedBenefits checkout={checkout} />
      <SellerContact seller={checkout.organization} />
    </section>
  );
}
