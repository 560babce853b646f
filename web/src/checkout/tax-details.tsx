import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { UseFormReturn } from "react-hook-form";
import { defineMessages, useIntl } from "react-intl";
import { request } from "../api/client";
import type { RequestBody } from "../api/wire";
import { t } from "../i18n/translate";
import { Field } from "../ui/components";
import { checkoutPath, type PublicCheckout } from "./api";
import { STATE_COUNTRIES, type CheckoutForm, type CheckoutValues } from "./form";
import { checkoutQuery } from "./queries";
import { optional } from "./questions";

const messages = defineMessages({
  business: { id: "checkout.business", defaultMessage: "I'm buying as a business" },
  companyName: { id: "checkout.business.name", defaultMessage: "Company name" },
  taxId: { id: "checkout.business.taxId", defaultMessage: "Tax ID" },
  taxIdHint: { id: "checkout.business.taxIdHint", defaultMessage: "An EU business with a valid VAT number pays no VAT here: it accounts for it itself." },
  line1: { id: "checkout.business.line1", defaultMessage: "Street address" },
  city: { id: "checkout.business.city", defaultMessage: "City" },
  taxIdRefused: { id: "checkout.business.taxIdRefused", defaultMessage: "This tax ID does not have the format of the country chosen" },
  state: { id: "checkout.state", defaultMessage: "State or province" },
  postalCode: { id: "checkout.postalCode", defaultMessage: "Postal code" },
});

/** The address and business details the checkout is taxed by, as Polar's client update takes them. */
function taxDetailsOf(values: Pick<CheckoutForm, "country" | "state" | "postalCode" | "business" | "billingName" | "taxId" | "line1" | "city">): RequestBody<"/v1/checkouts/client/{client_secret}", "patch"> {
  const blankToNull = (value: string) => value.trim() || null;
  return {
    customer_billing_address: { country: values.country, state: blankToNull(values.state), postal_code: blankToNull(values.postalCode), line1: values.business ? blankToNull(values.line1) : null, city: values.business ? blankToNull(values.city) : null },
    is_business_customer: values.business,
    customer_billing_name: values.business ? blankToNull(values.billingName) : null,
    customer_tax_id: values.business ? blankToNull(values.taxId) : null,
  };
}

/** Whether the address says enough to be taxed: a country, and in the US and Canada the state. */
const taxable = (values: Pick<CheckoutForm, "country" | "state">) => /^[A-Z]{2}$/.test(values.country) && (!STATE_COUNTRIES.has(values.country) || values.state.trim() !== "");

/**
 * Sends the buyer's address and business details to the checkout as they are typed (a moment after
 * the last key), so the summary shows the tax and total they will pay before they pay; a tax ID the
 * country does not know is said next to its field. What the buyer types is never lost: the form
 * keeps it, and the confirmation sends it again.
 */
export function useTaxPreview(form: UseFormReturn<CheckoutForm, unknown, CheckoutValues>, clientSecret: string) {
  const queryClient = useQueryClient();
  const send = useMutation({
    mutationFn: (body: RequestBody<"/v1/checkouts/client/{client_secret}", "patch">) => request<PublicCheckout>(checkoutPath(clientSecret), { method: "PATCH", body }),
    onSuccess: (changed) => {
      queryClient.setQueryData(checkoutQuery(clientSecret).queryKey, changed);
      form.clearErrors("taxId");
    },
    onError: ({ failure }) => {
      const detail = (failure.body as { detail?: unknown } | null)?.detail;
      const refusedTaxId = failure.status === 422 && Array.isArray(detail) && (detail as { loc: unknown[] }[]).some((issue) => issue.loc.at(-1) === "customer_tax_id");
      if (refusedTaxId) form.setError("taxId", { message: t(messages.taxIdRefused) });
    },
  });
  const [country, state, postalCode, business, billingName, taxId, line1, city] = form.watch(["country", "state", "postalCode", "business", "billingName", "taxId", "line1", "city"]);
  const { mutate } = send;
  useEffect(() => {
    const values = { country, state, postalCode, business, billingName, taxId, line1, city };
    if (!taxable(values)) return;
    const timer = setTimeout(() => mutate(taxDetailsOf(values)), 400);
    return () => clearTimeout(timer);
  }, [country, state, postalCode, business, billingName, taxId, line1, city, mutate]);
  return { taxDetails: () => taxDetailsOf(form.getValues()) };
}

/**
 * Whether the buyer buys as a business and, when they do, its name, address and tax ID: its invoice
 * needs them. The state (US, Canada) and postal code sit with the address.
 */
export function BusinessFields({ form, askState }: { form: UseFormReturn<CheckoutForm, unknown, CheckoutValues>; askState: boolean }) {
  const { formatMessage } = useIntl();
  const business = form.watch("business");
  const { errors } = form.formState;
  return (
    <>
      <label className="checkbox checkout-business">
        <input type="checkbox" {...form.register("business")} />
        {formatMessage(messages.business)}
      </label>
      {business && (
        <>
          <Field label={formatMessage(messages.companyName)} error={errors.billingName?.message}>
            {(ids) => <input {...ids} {...form.register("billingName")} autoComplete="organization" />}
          </Field>
          <Field label={formatMessage(messages.line1)} error={errors.line1?.message}>
            {(ids) => <input {...ids} {...form.register("line1")} autoComplete="address-line1" />}
          </Field>
          <div className="field-row">
            {askState && <StateField form={form} />}
            <PostalCodeField form={form} />
            <Field label={formatMessage(messages.city)} error={errors.city?.message}>
              {(ids) => <input {...ids} {...form.register("city")} autoComplete="address-level2" />}
            </Field>
          </div>
          <Field label={formatMessage(messages.taxId)} hint={`${formatMessage(optional)} · ${formatMessage(messages.taxIdHint)}`} error={errors.taxId?.message}>
            {(ids) => <input {...ids} {...form.register("taxId")} autoComplete="off" />}
          </Field>
        </>
      )}
    </>
  );
}

/** The state or province, which taxes in the US and Canada depend on. */
export function StateField({ form }: { form: UseFormReturn<CheckoutForm, unknown, CheckoutValues> }) {
  const { formatMessage } = useIntl();
  return (
    <Field label={formatMessage(messages.state)} error={form.formState.errors.state?.message}>
      {(ids) => <input {...ids} {...form.register("state")} autoComplete="address-level1" />}
    </Field>
  );
}

export function PostalCodeField({ form }: { form: UseFormReturn<CheckoutForm, unknown, CheckoutValues> }) {
  const { formatMessage } = useIntl();
  return (
    <Field label={formatMessage(messages.postalCode)} error={form.formState.errors.postalCode?.message}>
      {(ids) => <input {...ids} {...form.register("postalCode")} autoComplete="postal-code" />}
    </Field>
  );
}
