import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useParams } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { describeError, request, type ApiError } from "../api/client";
import { placeRefusals } from "../forms/refusals";
import { checkoutForm, STATE_COUNTRIES, type CheckoutForm } from "../forms/schemas";
import { Alert, Button, Field, Loading, Page } from "../ui/components";
import { money } from "../ui/format";

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

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The hosted checkout: `{PUBLIC_URL}/checkout/{client_secret}`, the `url` of every checkout. */
export function CheckoutScreen() {
  // Also shown at …/confirmation, the default success_url.
  const { clientSecret = "" } = useParams({ strict: false });
  const path = `/v1/checkouts/client/${encodeURIComponent(clientSecret)}`;
  const checkout = useQuery({
    queryKey: ["checkout", clientSecret],
    queryFn: async () => {
      const result = await request<PublicCheckout>(path);
      if (result.error) throw new Error(describeError(result.error));
      return result.data;
    },
  });
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
        return setFailure(latest.data.payment_processor_metadata.payment_error ?? "The payment did not go through. Please try again.");
      }
      await pause(500);
    }
    setFailure("The payment is taking longer than usual. This page will not charge you twice; check your e-mail before trying again.");
  });

  if (checkout.isPending) return <Loading what="the checkout" />;
  if (checkout.error) {
    return (
      <Page title="Checkout">
        <Alert tone="error">This checkout could not be found. Ask the seller for a new link.</Alert>
      </Page>
    );
  }
  const shown = outcome ?? checkout.data;
  const title = shown.product ? `${shown.product.name} from ${shown.organization.name}` : `Checkout with ${shown.organization.name}`;
  if (shown.status === "succeeded") {
    return (
      <Page title="Thank you!">
        <Alert tone="success">
          Your payment of {money(shown.total_amount, shown.currency)} to {shown.organization.name} went through. A receipt is on its way to {shown.customer_email ?? "you"}.
        </Alert>
      </Page>
    );
  }
  if (shown.status === "expired" || shown.status === "failed") {
    return (
      <Page title={title}>
        <Alert tone="error">{shown.status === "expired" ? "This checkout has expired. Ask the seller for a new link." : "This checkout could not be completed. Ask the seller for a new link."}</Alert>
      </Page>
    );
  }
  return (
    <Page title={title} description={shown.product?.description ?? undefined}>
      <p className="total">
        Total: <strong>{money(shown.total_amount, shown.currency)}</strong>
      </p>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label="E-mail" error={errors.email?.message}>
          {(ids) => <input {...ids} {...form.register("email")} type="email" autoComplete="email" />}
        </Field>
        <Field label="Name" hint="Optional" error={errors.name?.message}>
          {(ids) => <input {...ids} {...form.register("name")} autoComplete="name" />}
        </Field>
        <Field label="Country" hint="Two letters, such as GB or US" error={errors.country?.message}>
          {(ids) => <input {...ids} {...form.register("country")} autoComplete="country" maxLength={2} />}
        </Field>
        {askState && (
          <>
            <Field label="State or province" error={errors.state?.message}>
              {(ids) => <input {...ids} {...form.register("state")} autoComplete="address-level1" />}
            </Field>
            <Field label="Postal code" error={errors.postalCode?.message}>
              {(ids) => <input {...ids} {...form.register("postalCode")} autoComplete="postal-code" />}
            </Field>
          </>
        )}
        {shown.is_payment_form_required && (
          <>
            <Field label="Card number" hint="Sandbox: 4242 4242 4242 4242 pays; the README lists the other test cards" error={errors.cardNumber?.message}>
              {(ids) => <input {...ids} {...form.register("cardNumber")} inputMode="numeric" autoComplete="cc-number" />}
            </Field>
            <Field label="Expiry (MM/YY)" error={errors.expiry?.message}>
              {(ids) => <input {...ids} {...form.register("expiry")} autoComplete="cc-exp" placeholder="12/30" />}
            </Field>
            <Field label="CVC" error={errors.cvc?.message}>
              {(ids) => <input {...ids} {...form.register("cvc")} inputMode="numeric" autoComplete="cc-csc" />}
            </Field>
          </>
        )}
        {(failure ?? shown.payment_processor_metadata.payment_error) && <Alert tone="error">{failure ?? shown.payment_processor_metadata.payment_error}</Alert>}
        <Button type="submit" busy={isSubmitting} className="wide">
          {shown.is_payment_form_required ? `Pay ${money(shown.total_amount, shown.currency)}` : "Get it"}
        </Button>
      </form>
    </Page>
  );
}
