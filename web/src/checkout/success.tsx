import { defineMessage, defineMessages, useIntl } from "react-intl";
import { money } from "../i18n/format";
import { Alert } from "../ui/components";
import { successRedirectOf, type PublicCheckout } from "./api";

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
  bought: defineMessage<{ product: string }>({ id: "checkout.success.bought", defaultMessage: "{product} is yours." }),
  continue: defineMessage<{ seller: string }>({ id: "checkout.success.continue", defaultMessage: "Continue to {seller}" }),
});

/** A paid checkout: what was bought and the receipt, and the way on to the seller's own success page if it has one. */
export function CheckoutSuccess({ checkout }: { checkout: PublicCheckout }) {
  const { formatMessage } = useIntl();
  const seller = checkout.organization.name;
  const amount = money(checkout.total_amount, checkout.currency);
  const next = successRedirectOf(checkout);
  return (
    <section className="checkout-success">
      <span className="checkout-success-mark" aria-hidden="true">
        ✓
      </span>
      <h1>{formatMessage(messages.thankYou)}</h1>
      {checkout.product && <p className="checkout-price">{formatMessage(messages.bought, { product: checkout.product.name })}</p>}
      <Alert tone="success">
        {checkout.customer_email ? formatMessage(messages.paid, { amount, seller, email: checkout.customer_email }) : formatMessage(messages.paidNoEmail, { amount, seller })}
      </Alert>
      {next && (
        <a className="button button-primary" href={next}>
          {formatMessage(messages.continue, { seller })}
        </a>
      )}
    </section>
  );
}
