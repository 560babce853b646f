import { useState } from "react";
import { defineMessages, useIntl } from "react-intl";
import { describeError } from "../api/client";
import { Alert } from "../ui/components";
import { PriceLabel } from "../ui/price-label";
import type { PublicCheckout } from "./api";
import { useCheckoutChange } from "./queries";

const messages = defineMessages({
  choose: { id: "checkout.choice.title", defaultMessage: "Choose what to buy" },
});

/**
 * The products a checkout offers, when it offers more than one (a checkout link with several), as
 * Polar's page shows them: a card each with its name and price, the chosen one sent to the checkout
 * (Polar's client update with `product_id`), whose summary and total follow at once.
 */
export function ProductChoice({ checkout, clientSecret }: { checkout: PublicCheckout; clientSecret: string }) {
  const { formatMessage } = useIntl();
  const change = useCheckoutChange(clientSecret);
  // The buyer's pick shows at once and stays while the checkout answers and is fetched again (a
  // controlled radio would otherwise spring back to the old product for that moment); a refused
  // change gives the checkout's own choice back.
  const [picked, setPicked] = useState<string | null>(null);
  if (checkout.products.length < 2) return null;
  const chosen = picked ?? checkout.product_id;
  const choose = (productId: string) => {
    setPicked(productId);
    change.mutateAsync({ product_id: productId }).catch(() => setPicked(null));
  };
  return (
    <fieldset className="checkout-choice plain" disabled={change.isPending}>
      <legend className="checkout-subheading">{formatMessage(messages.choose)}</legend>
      {checkout.products.map((product) => {
        const prices = (checkout.prices[product.id] ?? product.prices).filter((price) => price.price_currency === checkout.currency);
        return (
          <label key={product.id} className="checkout-choice-card">
            <input type="radio" name="product" value={product.id} checked={chosen === product.id} onChange={() => choose(product.id)} />
            <span className="checkout-choice-name">{product.name}</span>
            <span className="checkout-choice-price">
              <PriceLabel product={{ ...product, prices }} />
            </span>
          </label>
        );
      })}
      {change.error && <Alert tone="error">{describeError(change.error.failure)}</Alert>}
    </fieldset>
  );
}
