import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { useForm, type FieldPath } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { request } from "../api/client";
import type { CheckoutPublicConfirmed as PublicCheckoutConfirmed, RequestBody } from "../api/wire";
import { storeToken } from "../portal/api";
import { placeRefusals } from "../forms/refusals";
import { checkoutFormFor, customFieldData, STATE_COUNTRIES, type CheckoutForm, type CheckoutValues } from "./form";
import { money } from "../i18n/format";
import { Alert, Button, Field } from "../ui/components";
import { checkoutQuery } from "./queries";
import { checkoutPath, paymentErrorOf, sandboxCardToken, successRedirectOf, type PublicCheckout } from "./api";
import { CardFields } from "./card-fields";
import { cardFormNotReady, StripePaymentElement, type StripePayment } from "./stripe-payment";
import { CountrySelect } from "./country-select";
import { COUNTRY_CODES } from "./countries";
import { optional, Questions } from "./questions";
import { BusinessFields, PostalCodeField, StateField, useTaxPreview } from "./tax-details";

const messages = defineMessages({
  details: { id: "checkout.details", defaultMessage: "Your details" },
  paymentFailed: { id: "checkout.paymentFailed", defaultMessage: "The payment did not go through. Please try again." },
  paymentSlow: {
    id: "checkout.paymentSlow",
    defaultMessage: "The payment is taking longer than usual. This page will not charge you twice; check your e-mail before trying again.",
  },
  email: { id: "checkout.email", defaultMessage: "E-mail" },
  emailLocked: defineMessage<{ seller: string }>({ id: "checkout.emailLocked", defaultMessage: "{seller} set up this checkout for this e-mail." }),
  name: { id: "checkout.name", defaultMessage: "Name" },
  country: { id: "checkout.country", defaultMessage: "Country" },
  pay: defineMessage<{ amount: string }>({ id: "checkout.pay", defaultMessage: "Pay {amount}" }),
  startTrial: { id: "checkout.startTrial", defaultMessage: "Start free trial" },
  getIt: { id: "checkout.getIt", defaultMessage: "Get it" },
});

type FieldName = FieldPath<CheckoutForm>;

/** Where a field the server refused sits on this form (its 422 `loc` after `body`). */
const FIELD_OF: Record<string, FieldName> = {
  customer_email: "email",
  customer_name: "name",
  "customer_billing_address.country": "country",
  "customer_billing_address.state": "state",
  "customer_billing_address.postal_code": "postalCode",
  "customer_billing_address.line1": "line1",
  "customer_billing_address.city": "city",
  customer_billing_name: "billingName",
  customer_tax_id: "taxId",
  card_number: "cardNumber",
  exp_month: "expiry",
  exp_year: "expiry",
  cvc: "cvc",
};

/**
 * What the checkout already knows of the buyer (given by the seller's API or the link they followed),
 * filled in; without an address, the country of the browser's language ("de-DE": Germany), still
 * the buyer's to change.
 */
function prefilledDetails(checkout: PublicCheckout): Omit<CheckoutForm, "needsCard" | "answers" | "cardNumber" | "expiry" | "cvc"> {
  const address = checkout.customer_billing_address;
  return {
    email: checkout.customer_email ?? "",
    name: checkout.customer_name ?? "",
    country: address?.country ?? browserCountry(),
    state: address?.state ?? "",
    postalCode: address?.postal_code ?? "",
    business: checkout.is_business_customer,
    billingName: checkout.customer_billing_name ?? "",
    line1: address?.line1 ?? "",
    city: address?.city ?? "",
    taxId: checkout.customer_tax_id ?? "",
  };
}

/** The country the browser's language names ("fr-FR", "pt-BR"), if it names one and it is a country buyers may choose. */
function browserCountry(): string {
  try {
    const region = new Intl.Locale(navigator.language).region ?? "";
    return COUNTRY_CODES.includes(region) ? region : "";
  } catch {
    return "";
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Who pays, where (for tax) and with which card; sent as Polar's checkout page sends it: a
 * confirmation token for the card (the sandbox's, or Stripe's from its Payment Element), then the
 * confirmation, then the checkout read until the payment is settled, taking the buyer through their
 * bank's check when Stripe says it wants them. A paid checkout goes to its success URL, or this page
 * thanks the buyer.
 */
export function PaymentForm({ checkout, clientSecret }: { checkout: PublicCheckout; clientSecret: string }) {
  const { formatMessage } = useIntl();
  const queryClient = useQueryClient();
  const headingId = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const questions = checkout.attached_custom_fields;
  const resolver = useMemo(() => zodResolver(checkoutFormFor(questions)), [questions]);
  const form = useForm<CheckoutForm, unknown, CheckoutValues>({
    resolver,
    defaultValues: { ...prefilledDetails(checkout), needsCard: true, answers: {}, cardNumber: "", expiry: "", cvc: "" },
  });
  // The seller made this checkout for a customer of theirs: the e-mail is theirs and stays (as Stripe's and Polar's do).
  const emailLocked = checkout.customer_id !== null && !!checkout.customer_email;
  const { taxDetails } = useTaxPreview(form, clientSecret);
  const needsCard = checkout.is_payment_form_required;
  const publishableKey = checkout.payment_processor_metadata.publishable_key;
  const stripePayment = useRef<StripePayment | null>(null);
  const onStripeReady = useCallback((payment: StripePayment | null) => void (stripePayment.current = payment), []);
  // The form checks the card's fields only when the checkout asks for a card and they are its own (Stripe checks its own).
  useEffect(() => form.setValue("needsCard", needsCard && !publishableKey), [form, needsCard, publishableKey]);
  const country = form.watch("country");
  const askState = STATE_COUNTRIES.has(country);
  const business = form.watch("business");
  const { errors, isSubmitting } = form.formState;
  const path = checkoutPath(clientSecret);

  /** Puts the server's refusals next to their fields; what has no field is said above the button. */
  const fieldOf = useMemo(() => ({ ...FIELD_OF, ...Object.fromEntries(questions.map(({ custom_field: { slug } }) => [`custom_field_data.${slug}`, `answers.${slug}` as const])) }), [questions]);
  const showRefusal = (reason: unknown) => setFailure(placeRefusals(reason, fieldOf, form.setError));

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    let confirmationTokenId: string | null = null;
    try {
      if (needsCard && publishableKey) {
        const made = await stripePayment.current?.token();
        if (!made) return setFailure(formatMessage(cardFormNotReady));
        if ("error" in made) return setFailure(made.error);
        confirmationTokenId = made.id;
      } else if (needsCard) {
        confirmationTokenId = await sandboxCardToken(values);
      }
      const confirmed = await request<PublicCheckoutConfirmed>(`${path}/confirm`, {
        method: "POST",
        body: {
          customer_email: values.email,
          customer_name: values.name || null,
          ...taxDetails(),
          custom_field_data: customFieldData(questions, values.answers),
          confirmation_token_id: confirmationTokenId,
        } satisfies RequestBody<"/v1/checkouts/client/{client_secret}/confirm", "post">,
      });
      // A new customer's session: the thank-you page shows what was bought with it, and the portal opens signed in.
      if (confirmed.customer_session_token) storeToken(checkout.organization.slug, confirmed.customer_session_token);
    } catch (reason) {
      return showRefusal(reason);
    }
    // The card is charged in the background; the checkout says when it is done (a failed look is tried again).
    let bankAsked = false;
    for (let waited = 0; waited < 60; waited++) {
      const latest = await request<PublicCheckout>(path).catch(() => null);
      const waiting = latest?.payment_processor_metadata;
      if (latest?.status === "confirmed" && waiting?.intent_status === "requires_action" && waiting.intent_client_secret && !bankAsked) {
        // Stripe's webhook settles the payment once the bank has answered; the page keeps reading.
        bankAsked = true;
        await stripePayment.current?.finish(waiting.intent_client_secret);
      }
      if (latest && latest.status !== "confirmed") {
        if (latest.status !== "succeeded") return setFailure(paymentErrorOf(latest) ?? formatMessage(messages.paymentFailed));
        // The screen shows the paid checkout: thanks, and where the buyer goes next.
        queryClient.setQueryData(checkoutQuery(clientSecret).queryKey, latest);
        const next = successRedirectOf(latest);
        if (next) window.location.assign(next);
        return;
      }
      await pause(500);
    }
    setFailure(formatMessage(messages.paymentSlow));
  });

  const shownFailure = failure ?? paymentErrorOf(checkout);
  const total = money(checkout.total_amount, checkout.currency);
  const action = !needsCard ? messages.getIt : checkout.active_trial_interval ? messages.startTrial : null;
  return (
    <section className="checkout-form" aria-labelledby={headingId}>
      <h2 id={headingId}>{formatMessage(messages.details)}</h2>
      <form onSubmit={(event) => void submit(event)} noValidate>
        {emailLocked ? (
          // Read, not typed: the form keeps the e-mail and sends it as it came.
          <dl className="checkout-locked">
            <dt>{formatMessage(messages.email)}</dt>
            <dd>{checkout.customer_email}</dd>
            <dd className="hint">{formatMessage(messages.emailLocked, { seller: checkout.organization.name })}</dd>
          </dl>
        ) : (
          <Field label={formatMessage(messages.email)} error={errors.email?.message}>
            {(ids) => <input {...ids} {...form.register("email")} type="email" autoComplete="email" />}
          </Field>
        )}
        <Field label={formatMessage(messages.name)} hint={formatMessage(optional)} error={errors.name?.message}>
          {(ids) => <input {...ids} {...form.register("name")} autoComplete="name" />}
        </Field>
        <Field label={formatMessage(messages.country)} error={errors.country?.message}>
          {(ids) => <CountrySelect {...ids} value={country} onChange={(code) => form.setValue("country", code, { shouldValidate: form.formState.isSubmitted })} />}
        </Field>
        {askState && !business && (
          <div className="field-row">
            <StateField form={form} />
            <PostalCodeField form={form} />
          </div>
        )}
        <BusinessFields form={form} askState={askState} />
        <Questions questions={questions} form={form} />
        {needsCard && (publishableKey ? <StripePaymentElement charge={{ amount: checkout.total_amount, currency: checkout.currency, keepsCard: checkout.is_payment_setup_required }} publishableKey={publishableKey} onReady={onStripeReady} /> : <CardFields form={form} />)}
        {shownFailure && <Alert tone="error">{shownFailure}</Alert>}
        <Button type="submit" busy={isSubmitting} className="wide">
          {action ? formatMessage(action) : formatMessage(messages.pay, { amount: total })}
        </Button>
      </form>
    </section>
  );
}
