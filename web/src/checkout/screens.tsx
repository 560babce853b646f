import { useQuery } from "@tanstack/react-query";
import { useParams } from "@tanstack/react-router";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { usePageLocale } from "../i18n/provider";
import { Alert } from "../ui/components";
import { QueryState } from "../ui/query-state";
import { SellerFrame } from "../ui/seller-frame";
import type { PublicCheckout } from "./api";
import { checkoutQuery } from "./queries";
import { DiscountCode } from "./discount-code";
import { SeatCount } from "./seat-count";
import { PaymentForm } from "./payment-form";
import { ProductChoice } from "./product-choice";
import { CheckoutSuccess } from "./success";
import { OrderSummary } from "./summary";

const messages = defineMessages({
  loading: { id: "checkout.loading", defaultMessage: "Loading the checkout…" },
  title: { id: "checkout.title", defaultMessage: "Checkout" },
  notFound: { id: "checkout.notFound", defaultMessage: "This checkout could not be found. Ask the seller for a new link." },
  productFrom: defineMessage<{ product: string; seller: string }>({ id: "checkout.productFrom", defaultMessage: "{product} from {seller}" }),
  checkoutWith: defineMessage<{ seller: string }>({ id: "checkout.checkoutWith", defaultMessage: "Checkout with {seller}" }),
  expired: { id: "checkout.expired", defaultMessage: "This checkout has expired. Ask the seller for a new link." },
  failed: { id: "checkout.failed", defaultMessage: "This checkout could not be completed. Ask the seller for a new link." },
});

/**
 * The hosted checkout: `{PUBLIC_URL}/checkout/{client_secret}`, the `url` of every checkout, in the
 * seller's colours rather than the platform's: what is bought beside the form on a wide screen,
 * above it on a phone.
 */
export function CheckoutScreen() {
  // Also shown at …/confirmation, the default success_url.
  const { clientSecret = "" } = useParams({ strict: false });
  const { formatMessage } = useIntl();
  const checkout = useQuery(checkoutQuery(clientSecret));
  usePageLocale(checkout.data?.locale);

  return (
    <SellerFrame seller={checkout.data?.organization}>
      <QueryState
        query={checkout}
        loading={messages.loading}
        failure={() => formatMessage(messages.notFound)}
        framed={(alert) => (
          <section className="checkout-ended">
            <h1>{formatMessage(messages.title)}</h1>
            {alert}
          </section>
        )}
      >
        {(shown) => <OpenCheckout shown={shown} clientSecret={clientSecret} />}
      </QueryState>
    </SellerFrame>
  );
}

/** A checkout as far as it has gone: paid, ended, or waiting for the buyer to pay. */
function OpenCheckout({ shown, clientSecret }: { shown: PublicCheckout; clientSecret: string }) {
  const { formatMessage } = useIntl();
  const seller = shown.organization.name;
  const title = shown.product ? formatMessage(messages.productFrom, { product: shown.product.name, seller }) : formatMessage(messages.checkoutWith, { seller });
  if (shown.status === "succeeded") return <CheckoutSuccess checkout={shown} />;
  if (shown.status === "expired" || shown.status === "failed") {
    return (
      <section className="checkout-ended">
        <h1>{title}</h1>
        <Alert tone="error">{formatMessage(shown.status === "expired" ? messages.expired : messages.failed)}</Alert>
      </section>
    );
  }
  return (
    <div className="checkout">
      <OrderSummary checkout={shown} title={title} choice={<ProductChoice checkout={shown} clientSecret={clientSecret} />}>
        <SeatCount checkout={shown} clientSecret={clientSecret} />
        <DiscountCode checkout={shown} clientSecret={clientSecret} />
      </OrderSummary>
      <PaymentForm checkout={shown} clientSecret={clientSecret} />
    </div>
  );
}
