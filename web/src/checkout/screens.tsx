import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useParams } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl, type MessageTag } from "react-intl";
import type { z } from "zod";
import { describeError, request, type ApiError } from "../api/client";
import { processorText } from "../api/error-messages";
import { placeRefusals } from "../forms/refusals";
import { checkoutForm, STATE_COUNTRIES, type CheckoutForm } from "../forms/schemas";
import { money } from "../i18n/format";
import { usePageLocale } from "../i18n/provider";
import { Alert, Button, Field, Loading, Page } from "../ui/components";

const messages = defineMessages({
  paymentFailed: { id: "checkout.paymentFailed", defaultMessage: "The payment did not go through. Please try again." },
  paymentSlow: {
    id: "checkout.paymentSlow",
    defaultMessage: "The payment is taking longer than usual. This page will not charge you twice; check your e-mail before trying again.",
  },
  loading: { id: "checkout.loading", defaultMessage: "Loading the checkout…" },
  title: { id: "checkout.title", defaultMessage: "Checkout" },
  notFound: { id: "checkout.notFound", defaultMessage: "This checkout could not be found. Ask the seller for a new link." },
  productFrom: defineMessage<{ product: string; seller: string }>({ id: "checkout.productFrom", defaultMessage: "{product} from {seller}" }),
  checkoutWith: defineMessage<{ seller: string }>({ id: "checkout.checkoutWith", defaultMessage: "Checkout with {seller}" }),
  thankYou: { id: "checkout.thankYou", defaultMessage: "Thank you!" },
  paid: defineMessage<{ amount: string; seller: string; email: string }>({
    id: "checkout.paid",
    defaultMessage: "Your payment of {amount} to {seller} went through. A receipt is on its way to {email}.",
  }),
  paidNoEmail: defineMessage<{ amount: string; seller: string }>({
    id: "checkout.paidNoEmail",
    defaultMessage: "Your payment of {amount} to {seller} went through. A receipt is on its way to you.",
  }),
  expired: { id: "checkout.expired", defaultMessage: "This checkout has expired. Ask the seller for a new link." },
  failed: { id: "checkout.failed", defaultMessage: "This checkout could not be completed. Ask the seller for a new link." },
  total: defineMessage<{ amount: string; strong: MessageTag }>({ id: "checkout.total", defaultMessage: "Total: <strong>{amount}</strong>" }),
  email: { id: "checkout.email", defaultMessage: "E-mail" },
  name: { id: "checkout.name", defaultMessage: "Name" },
  optional: { id: "checkout.optional", defaultMessage: "Optional" },
  country: { id: "checkout.country", defaultMessage: "Country" },
  countryHint: defineMessage<{ examples: string }>({ id: "checkout.countryHint", defaultMessage: "Two letters, such as {examples}" }),
  state: { id: "checkout.state", defaultMessage: "State or province" },
  postalCode: { id: "checkout.postalCode", defaultMessage: "Postal code" },
  cardNumber: { id: "checkout.cardNumber", defaultMessage: "Card number" },
  cardNumberHint: defineMessage<{ card: string }>({ id: "checkout.cardNumberHint", defaultMessage: "Sandbox: {card} pays; the README lists the other test cards" }),
  expiry: { id: "checkout.expiry", defaultMessage: "Expiry (MM/YY)" },
  cvc: { id: "checkout.cvc", defaultMessage: "CVC" },
  pay: defineMessage<{ amount: string }>({ id: "checkout.pay", defaultMessage: "Pay {amount}" }),
  getIt: { id: "checkout.getIt", defaultMessage: "Get it" },
});

/** What the page needs of Polar's CheckoutPublic. */
interface PublicCheckout {
  id: string;
  status: "open" | "expired" | "confirmed" | "succeeded" | "failed";
  total_amount: number;
  currency: string;
  success_url: string;
  customer_email: string | null;
  customer_name: string | null;
  is_payment_form_required: boolean;
  payment_processor_metadata: Record<string, string>;
  product: { name: string; description: string | null } | null;
  organization: { name: string };
  /** The buyer's language as the seller set it (Polar's `locale`), if any. */
  locale?: string | null;
}

type FieldName = keyof CheckoutForm;

/** Where a field the server refused sits on this form (its 422 `loc` after `body`). */
const FIELD_OF: Record<string, FieldName> = {
  customer_email: "email",
  customer_name: "name",
  "customer_billing_address.country": "country",
  "customer_billing_address.state": "state",
  "customer_billing_address.postal_code": "postalCode",
  card_number: "cardNumber",
  exp_month: "expiry",
  exp_year: "expiry",
  cvc: "cvc",
};

/** Why the checkout's last payment failed, in the reader's language when the reason is a known one. */
function paymentErrorOf(checkout: PublicCheckout): string | undefined {
  const reason = checkout.payment_processor_metadata.payment_error;
  return reason === undefined ? undefined : processorText(reason);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The hosted checkout: `{PUBLIC_URL}/checkout/{client_secret}`, the `url` of every checkout. */
export function CheckoutScreen() {
  // Also shown at …/confirmation, the default success_url.
  const { clientSecret = "" } = useParams({ strict: false });
  const { formatMessage } = useIntl();
  const path = `/v1/checkouts/client/${encodeURIComponent(clientSecret)}`;
  const checkout = useQuery({
    queryKey: ["checkout", clientSecret],
    queryFn: async () => {
      const result = await request<PublicCheckout>(path);
      if (result.error) throw new Error(describeError(result.error));
      return result.data;
    },
  });
  usePageLocale(checkout.data?.locale);
  const [outcome, setOutcome] = useState<PublicCheckout | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<CheckoutForm, unknown, z.output<typeof checkoutForm>>({
    resolver: zodResolver(checkoutForm),
    defaultValues: { needsCard: true, email: "", name: "", country: "", state: "", postalCode: "", cardNumber: "", expiry: "", cvc: "" },
  });
  const needsCard = checkout.data?.is_payment_form_required ?? true;
  // The form checks the card only when the checkout asks for one.
  useEffect(() => form.setValue("needsCard", needsCard), [form, needsCard]);
  const askState = STATE_COUNTRIES.has(form.watch("country").trim().toUpperCase());
  const { errors, isSubmitting } = form.formState;

  /** Puts the server's refusals next to their fields; what has no field is said above the button. */
  const showRefusal = (error: ApiError) => setFailure(placeRefusals(error, FIELD_OF, form.setError));

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const [month, year] = values.expiry.split("/").map((part) => Number(part.trim()));
    let confirmationTokenId: string | null = null;
    if (checkout.data?.is_payment_form_required) {
      const token = await request<{ id: string }>("/v1/sandbox/confirmation-tokens", {
        method: "POST",
        body: { card_number: values.cardNumber, exp_month: month, exp_year: 2000 + (year ?? 0), cvc: values.cvc },
      });
      if (token.error) return showRefusal(token.error);
      confirmationTokenId = token.data.id;
    }
    const confirmed = await request<PublicCheckout>(`${path}/confirm`, {
      method: "POST",
      body: {
        customer_email: values.email,
        customer_name: values.name || null,
        customer_billing_address: { country: values.country, state: values.state || null, postal_code: values.postalCode || null },
        confirmation_token_id: confirmationTokenId,
      },
    });
    if (confirmed.error) return showRefusal(confirmed.error);
    // The card is charged in the background; the checkout says when it is done.
    for (let waited = 0; waited < 60; waited++) {
      const latest = await request<PublicCheckout>(path);
      if (latest.data && latest.data.status !== "confirmed") {
        if (latest.data.status === "succeeded") {
          setOutcome(latest.data);
          const next = new URL(latest.data.success_url, window.location.href);
          // Only web addresses: a stored `javascript:` URL would run as this site (the API refuses new ones).
          const isWeb = next.protocol === "https:" || next.protocol === "http:";
          if (isWeb && (next.origin !== window.location.origin || !next.pathname.startsWith(window.location.pathname))) window.location.assign(next.toString());
          return;
        }
        return setFailure(paymentErrorOf(latest.data) ?? formatMessage(messages.paymentFailed));
      }
      await pause(500);
    }
    setFailure(formatMessage(messages.paymentSlow));
  });

  if (checkout.isPending) return <Loading message={messages.loading} />;
  if (checkout.error) {
    return (
      <Page title={formatMessage(messages.title)}>
        <Alert tone="error">{formatMessage(messages.notFound)}</Alert>
      </Page>
    );
  }
  const shown = outcome ?? checkout.data;
  const seller = shown.organization.name;
  const amount = money(shown.total_amount, shown.currency);
  const title = shown.product ? formatMessage(messages.productFrom, { product: shown.product.name, seller }) : formatMessage(messages.checkoutWith, { seller });
  if (shown.status === "succeeded") {
    return (
      <Page title={formatMessage(messages.thankYou)}>
        <Alert tone="success">
          {shown.customer_email ? formatMessage(messages.paid, { amount, seller, email: shown.customer_email }) : formatMessage(messages.paidNoEmail, { amount, seller })}
        </Alert>
      </Page>
    );
  }
  if (shown.status === "expired" || shown.status === "failed") {
    return (
      <Page title={title}>
        <Alert tone="error">{formatMessage(shown.status === "expired" ? messages.expired : messages.failed)}</Alert>
      </Page>
    );
  }
  return (
    <Page title={title} description={shown.product?.description ?? undefined}>
      <p className="total">
        {formatMessage(messages.total, { amount, strong: (chunks) => <strong>{chunks}</strong> })}
      </p>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label={formatMessage(messages.email)} error={errors.email?.message}>
          {(ids) => <input {...ids} {...form.register("email")} type="email" autoComplete="email" />}
        </Field>
        <Field label={formatMessage(messages.name)} hint={formatMessage(messages.optional)} error={errors.name?.message}>
          {(ids) => <input {...ids} {...form.register("name")} autoComplete="name" />}
        </Field>
        <Field label={formatMessage(messages.country)} hint={formatMessage(messages.countryHint, { examples: "GB, US" })} error={errors.country?.message}>
          {(ids) => <input {...ids} {...form.register("country")} autoComplete="country" maxLength={2} />}
        </Field>
        {askState && (
          <>
            <Field label={formatMessage(messages.state)} error={errors.state?.message}>
              {(ids) => <input {...ids} {...form.register("state")} autoComplete="address-level1" />}
            </Field>
            <Field label={formatMessage(messages.postalCode)} error={errors.postalCode?.message}>
              {(ids) => <input {...ids} {...form.register("postalCode")} autoComplete="postal-code" />}
            </Field>
          </>
        )}
        {shown.is_payment_form_required && (
          <>
            <Field label={formatMessage(messages.cardNumber)} hint={formatMessage(messages.cardNumberHint, { card: "4242 4242 4242 4242" })} error={errors.cardNumber?.message}>
              {(ids) => <input {...ids} {...form.register("cardNumber")} inputMode="numeric" autoComplete="cc-number" />}
            </Field>
            <Field label={formatMessage(messages.expiry)} error={errors.expiry?.message}>
              {(ids) => <input {...ids} {...form.register("expiry")} autoComplete="cc-exp" placeholder="12/30" />}
            </Field>
            <Field label={formatMessage(messages.cvc)} error={errors.cvc?.message}>
              {(ids) => <input {...ids} {...form.register("cvc")} inputMode="numeric" autoComplete="cc-csc" />}
            </Field>
          </>
        )}
        {(failure ?? paymentErrorOf(shown)) && <Alert tone="error">{failure ?? paymentErrorOf(shown)}</Alert>}
        <Button type="submit" busy={isSubmitting} className="wide">
          {shown.is_payment_form_required ? formatMessage(messages.pay, { amount }) : formatMessage(messages.getIt)}
        </Button>
      </form>
    </Page>
  );
}
