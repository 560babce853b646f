import { useEffect, useRef, useState } from "react";
import { defineMessages, useIntl } from "react-intl";
import { Alert } from "../ui/components";
import { loadStripe, type StripeClient, type StripeElements } from "./stripe-js";

const messages = defineMessages({
  loading: { id: "checkout.stripe.loading", defaultMessage: "Loading the secure card form…" },
  unavailable: { id: "checkout.stripe.unavailable", defaultMessage: "The secure card form could not be loaded. Check your connection and reload the page." },
  notReady: { id: "checkout.stripe.notReady", defaultMessage: "The card form is still loading; try again in a moment." },
});

/** What paying asks of Stripe's Payment Element once it is on the page. */
export interface StripePayment {
  /** The card as a single-use confirmation token, or Stripe's words (in the buyer's language) for what is wrong. */
  token(): Promise<{ id: string } | { error: string }>;
  /** Takes the buyer through their bank's check (3-D Secure); however it ends, the checkout then says (Stripe's webhook settles it). */
  finish(clientSecret: string): Promise<void>;
}

/**
 * What the card is for: `amount` due now in `currency` (0: nothing, the card is only kept), and
 * whether it is kept for later charges too.
 */
export interface StripeCharge {
  amount: number;
  currency: string;
  keepsCard: boolean;
}

/** The words for a card form that is not there yet, for the form to show when the buyer pays too soon. */
export const cardFormNotReady = messages.notReady;

/**
 * Stripe's Payment Element in place of the sandbox's card fields, where the processor is Stripe (the
 * hosted checkout, the customer portal): Stripe.js is loaded only here, and the card never touches Tollgate (the page sends the
 * confirmation token Stripe makes of it). `onReady` gets what the form calls when the buyer pays.
 */
export function StripePaymentElement({ charge, publishableKey, onReady }: { charge: StripeCharge; publishableKey: string; onReady: (payment: StripePayment | null) => void }) {
  const { formatMessage, locale } = useIntl();
  const target = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  const { amount, currency, keepsCard } = charge;

  useEffect(() => {
    let stripe: StripeClient;
    let elements: StripeElements;
    let unmount = () => {};
    let cancelled = false;
    loadStripe()
      .then((Stripe) => {
        if (cancelled || !target.current) return;
        stripe = Stripe(publishableKey, { locale });
        // Nothing due now (a trial, a free or metered plan): the card is only kept, as a SetupIntent will.
        elements = amount > 0 ? stripe.elements({ mode: "payment", amount, currency, ...(keepsCard ? { setupFutureUsage: "off_session" as const } : {}), locale }) : stripe.elements({ mode: "setup", currency, locale });
        const element = elements.create("payment", { layout: "tabs" });
        element.mount(target.current);
        unmount = () => element.destroy();
        setState("ready");
        onReady({
          async token() {
            const checked = await elements.submit();
            if (checked.error) return { error: checked.error.message ?? formatMessage(messages.unavailable) };
            const made = await stripe.createConfirmationToken({ elements });
            return made.confirmationToken ? { id: made.confirmationToken.id } : { error: made.error?.message ?? formatMessage(messages.unavailable) };
          },
          async finish(clientSecret) {
            await stripe.handleNextAction({ clientSecret });
          },
        });
      })
      .catch(() => !cancelled && setState("failed"));
    return () => {
      cancelled = true;
      unmount();
      onReady(null);
    };
  }, [publishableKey, locale, amount, currency, keepsCard, onReady, formatMessage]);

  return (
    <div className="stripe-payment">
      {state === "loading" && <p className="muted">{formatMessage(messages.loading)}</p>}
      {state === "failed" && <Alert tone="error">{formatMessage(messages.unavailable)}</Alert>}
      <div ref={target} />
    </div>
  );
}
