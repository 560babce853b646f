import { failureOf } from "../api/client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import type { z } from "zod";
import type { RequestBody } from "../api/wire";
import { placeRefusals } from "../forms/refusals";
import { billingDetailsForm, type BillingDetailsForm } from "../forms/address";
import { Alert, Button, Card, Field } from "../ui/components";
import { portalRequest, type PortalAccess, type PortalCustomer } from "./api";
import { portalQuery } from "./queries";
import { failureText } from "./failures";
import { QueryState } from "../ui/query-state";

const ME = "customers/me";

const messages = defineMessages({
  title: { id: "portal.billing.title", defaultMessage: "Billing details" },
  description: { id: "portal.billing.description", defaultMessage: "The name and address on your invoices." },
  loading: { id: "portal.billing.loading", defaultMessage: "Loading your billing details…" },
  saved: { id: "portal.billing.saved", defaultMessage: "Your billing details are saved. Your next invoices will carry them." },
  receiptsTo: defineMessage<{ email: string }>({ id: "portal.billing.receiptsTo", defaultMessage: "Receipts go to {email}." }),
  billingName: { id: "portal.billing.name", defaultMessage: "Billing name" },
  billingNameHint: { id: "portal.billing.nameHint", defaultMessage: "A person or a company. Left empty, invoices carry your own name." },
  address: { id: "portal.billing.address", defaultMessage: "Address" },
  addressLine2: { id: "portal.billing.addressLine2", defaultMessage: "Address, second line" },
  optional: { id: "portal.billing.optional", defaultMessage: "Optional" },
  postalCode: { id: "portal.billing.postalCode", defaultMessage: "Postal code" },
  city: { id: "portal.billing.city", defaultMessage: "City" },
  state: { id: "portal.billing.state", defaultMessage: "State or region" },
  country: { id: "portal.billing.country", defaultMessage: "Country" },
  countryHint: defineMessage<{ examples: string }>({ id: "portal.billing.countryHint", defaultMessage: "Two letters, such as {examples}" }),
  taxId: { id: "portal.billing.taxId", defaultMessage: "Tax id" },
  taxIdHint: defineMessage<{ example: string }>({ id: "portal.billing.taxIdHint", defaultMessage: "Such as a VAT number: {example}. Optional." }),
  save: { id: "portal.billing.submit", defaultMessage: "Save billing details" },
});

/** Where a field the server refused sits on this form (its 422 `loc` after `body`). */
const FIELD_OF: Record<string, keyof BillingDetailsForm> = {
  billing_name: "billingName",
  "billing_address.line1": "line1",
  "billing_address.line2": "line2",
  "billing_address.postal_code": "postalCode",
  "billing_address.city": "city",
  "billing_address.state": "state",
  "billing_address.country": "country",
  tax_id: "taxId",
};

const formValuesOf = ({ billing_name, billing_address: address, tax_id }: PortalCustomer): BillingDetailsForm => ({
  billingName: billing_name ?? "",
  line1: address?.line1 ?? "",
  line2: address?.line2 ?? "",
  postalCode: address?.postal_code ?? "",
  city: address?.city ?? "",
  state: address?.state ?? "",
  country: address?.country ?? "",
  taxId: tax_id?.[0] ?? "",
});

/** The name, address and tax id the customer's invoices carry, which they may correct. */
export function BillingDetailsCard({ access }: { access: PortalAccess }) {
  const { formatMessage } = useIntl();
  const customer = useQuery(portalQuery<PortalCustomer>(access, ME));
  return (
    <Card title={formatMessage(messages.title)} description={formatMessage(messages.description)}>
      <QueryState query={customer} loading={messages.loading} failure={(error) => failureText(error)}>
        {(shown) => <BillingDetailsEditor access={access} customer={shown} />}
      </QueryState>
    </Card>
  );
}

function BillingDetailsEditor({ access, customer }: { access: PortalAccess; customer: PortalCustomer }) {
  const { formatMessage } = useIntl();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const form = useForm<BillingDetailsForm, unknown, z.output<typeof billingDetailsForm>>({ resolver: zodResolver(billingDetailsForm), defaultValues: formValuesOf(customer) });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ billingName, line1, line2, postalCode, city, state, country, taxId }) => {
    setOutcome(null);
    let saved: PortalCustomer;
    try {
      saved = await portalRequest<PortalCustomer>(access, ME, {
        method: "PATCH",
        body: {
          billing_name: billingName || null,
          billing_address: country ? { line1: line1 || null, line2: line2 || null, postal_code: postalCode || null, city: city || null, state: state || null, country } : null,
          tax_id: taxId || null,
        } satisfies RequestBody<"/v1/customer-portal/customers/me", "patch">,
      });
    } catch (reason) {
      const unplaced = failureOf(reason).status === 401 ? failureText(reason) : placeRefusals(reason, FIELD_OF, form.setError);
      if (unplaced) setOutcome({ tone: "error", text: unplaced });
      return;
    }
    form.reset(formValuesOf(saved));
    queryClient.setQueryData(portalQuery<PortalCustomer>(access, ME).queryKey, saved);
    setOutcome({ tone: "success", text: formatMessage(messages.saved) });
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <p className="muted">{formatMessage(messages.receiptsTo, { email: customer.email })}</p>
      <Field label={formatMessage(messages.billingName)} hint={formatMessage(messages.billingNameHint)} error={errors.billingName?.message}>
        {(ids) => <input {...ids} {...form.register("billingName")} autoComplete="organization" />}
      </Field>
      <Field label={formatMessage(messages.address)} error={errors.line1?.message}>
        {(ids) => <input {...ids} {...form.register("line1")} autoComplete="address-line1" />}
      </Field>
      <Field label={formatMessage(messages.addressLine2)} hint={formatMessage(messages.optional)} error={errors.line2?.message}>
        {(ids) => <input {...ids} {...form.register("line2")} autoComplete="address-line2" />}
      </Field>
      <div className="field-row">
        <Field label={formatMessage(messages.postalCode)} error={errors.postalCode?.message}>
          {(ids) => <input {...ids} {...form.register("postalCode")} autoComplete="postal-code" />}
        </Field>
        <Field label={formatMessage(messages.city)} error={errors.city?.message}>
          {(ids) => <input {...ids} {...form.register("city")} autoComplete="address-level2" />}
        </Field>
      </div>
      <div className="field-row">
        <Field label={formatMessage(messages.state)} hint={formatMessage(messages.optional)} error={errors.state?.message}>
          {(ids) => <input {...ids} {...form.register("state")} autoComplete="address-level1" />}
        </Field>
        <Field label={formatMessage(messages.country)} hint={formatMessage(messages.countryHint, { examples: "DK, US" })} error={errors.country?.message}>
          {(ids) => <input {...ids} {...form.register("country")} autoComplete="country" maxLength={2} />}
        </Field>
      </div>
      <Field label={formatMessage(messages.taxId)} hint={formatMessage(messages.taxIdHint, { example: "DK12345678" })} error={errors.taxId?.message}>
        {(ids) => <input {...ids} {...form.register("taxId")} />}
      </Field>
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
      <Button type="submit" busy={isSubmitting}>
        {formatMessage(messages.save)}
      </Button>
    </form>
  );
}
