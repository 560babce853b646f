import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { placeRefusals } from "../forms/refusals";
import { billingDetailsForm, type BillingDetailsForm } from "../forms/schemas";
import { Alert, Button, Card, Field } from "../ui/components";
import { portalQuery, portalRequest, type PortalAccess, type PortalCustomer } from "./api";
import { failureText, Unread } from "./failures";

const ME = "customers/me";

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
  const customer = useQuery(portalQuery<PortalCustomer>(access, ME));
  return (
    <Card title="Billing details" description="The name and address on your invoices.">
      <Unread query={customer} what="your billing details" access={access} />
      {customer.data && <BillingDetailsEditor access={access} customer={customer.data} />}
    </Card>
  );
}

function BillingDetailsEditor({ access, customer }: { access: PortalAccess; customer: PortalCustomer }) {
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const form = useForm<BillingDetailsForm, unknown, z.output<typeof billingDetailsForm>>({ resolver: zodResolver(billingDetailsForm), defaultValues: formValuesOf(customer) });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ billingName, line1, line2, postalCode, city, state, country, taxId }) => {
    setOutcome(null);
    const saved = await portalRequest<PortalCustomer>(access, ME, {
      method: "PATCH",
      body: {
        billing_name: billingName || null,
        billing_address: country ? { line1: line1 || null, line2: line2 || null, postal_code: postalCode || null, city: city || null, state: state || null, country } : null,
        tax_id: taxId || null,
      },
    });
    if (saved.error) {
      const unplaced = saved.error.status === 401 ? failureText(saved.error, access) : placeRefusals(saved.error, FIELD_OF, form.setError);
      if (unplaced) setOutcome({ tone: "error", text: unplaced });
      return;
    }
    form.reset(formValuesOf(saved.data));
    queryClient.setQueryData(portalQuery<PortalCustomer>(access, ME).queryKey, saved.data);
    setOutcome({ tone: "success", text: "Your billing details are saved. Your next invoices will carry them." });
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <p className="muted">Receipts go to {customer.email}.</p>
      <Field label="Billing name" hint="A person or a company. Left empty, invoices carry your own name." error={errors.billingName?.message}>
        {(ids) => <input {...ids} {...form.register("billingName")} autoComplete="organization" />}
      </Field>
      <Field label="Address" error={errors.line1?.message}>
        {(ids) => <input {...ids} {...form.register("line1")} autoComplete="address-line1" />}
      </Field>
      <Field label="Address, second line" hint="Optional" error={errors.line2?.message}>
        {(ids) => <input {...ids} {...form.register("line2")} autoComplete="address-line2" />}
      </Field>
      <div className="field-row">
        <Field label="Postal code" error={errors.postalCode?.message}>
          {(ids) => <input {...ids} {...form.register("postalCode")} autoComplete="postal-code" />}
        </Field>
        <Field label="City" error={errors.city?.message}>
          {(ids) => <input {...ids} {...form.register("city")} autoComplete="address-level2" />}
        </Field>
      </div>
      <div className="field-row">
        <Field label="State or region" hint="Optional" error={errors.state?.message}>
          {(ids) => <input {...ids} {...form.register("state")} autoComplete="address-level1" />}
        </Field>
        <Field label="Country" hint="Two letters, such as DK or US" error={errors.country?.message}>
          {(ids) => <input {...ids} {...form.register("country")} autoComplete="country" maxLength={2} />}
        </Field>
      </div>
      <Field label="Tax id" hint="Such as a VAT number: DK12345678. Optional." error={errors.taxId?.message}>
        {(ids) => <input {...ids} {...form.register("taxId")} />}
      </Field>
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
      <Button type="submit" busy={isSubmitting}>
        Save billing details
      </Button>
    </form>
  );
}
