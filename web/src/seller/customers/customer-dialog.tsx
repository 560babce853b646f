import { zodResolver } from "@hookform/resolvers/zod";
import { useState, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import type { z } from "zod/mini";
import { placeRefusals } from "../../forms/refusals";
import { CUSTOMER_TYPES, customerForm, type CustomerForm } from "./form";
import { parseMetadata } from "../../forms/metadata";
import { Alert, Field } from "../../ui/components";
import { FormDialog, FormDialogActions } from "../../ui/form-dialog";
import { useSeller } from "../space";
import type { Customer, CustomerFields } from "./api";
import { useCreateCustomer, useUpdateCustomer } from "./queries";

const messages = defineMessages({
  createTitle: { id: "seller.customer.form.createTitle", defaultMessage: "New customer" },
  editTitle: { id: "seller.customer.form.editTitle", defaultMessage: "Edit customer" },
  type: { id: "seller.customer.form.type", defaultMessage: "Type" },
  typeName: defineMessage<{ type: string }>({ id: "seller.customer.form.typeName", defaultMessage: "{type, select, team {A team, with members who share its seats} other {One person}}" }),
  typeHint: { id: "seller.customer.form.typeHint", defaultMessage: "A customer can become a team, but a team cannot become one person again. Its e-mail becomes the team's owner." },
  email: { id: "seller.customer.form.email", defaultMessage: "E-mail" },
  name: { id: "seller.customer.form.name", defaultMessage: "Name" },
  externalId: { id: "seller.customer.form.externalId", defaultMessage: "External id" },
  externalIdHint: { id: "seller.customer.form.externalIdHint", defaultMessage: "Optional: the customer's id in your own system. It cannot change once set." },
  address: { id: "seller.customer.form.address", defaultMessage: "Billing address" },
  line1: { id: "seller.customer.form.line1", defaultMessage: "Street and number" },
  line2: { id: "seller.customer.form.line2", defaultMessage: "Address, second line" },
  postalCode: { id: "seller.customer.form.postalCode", defaultMessage: "Postal code" },
  city: { id: "seller.customer.form.city", defaultMessage: "City" },
  state: { id: "seller.customer.form.state", defaultMessage: "State or region" },
  country: { id: "seller.customer.form.country", defaultMessage: "Country (two letters)" },
  metadata: { id: "seller.customer.form.metadata", defaultMessage: "Metadata (JSON)" },
  save: { id: "seller.customer.form.save", defaultMessage: "Save customer" },
  cancel: { id: "seller.customer.form.cancel", defaultMessage: "Cancel" },
});

/** Where the API's refusals go on the form. */
const FIELD_OF: Record<string, keyof CustomerForm> = {
  type: "type",
  email: "email",
  name: "name",
  external_id: "externalId",
  "billing_address.line1": "line1",
  "billing_address.line2": "line2",
  "billing_address.postal_code": "postalCode",
  "billing_address.city": "city",
  "billing_address.state": "state",
  "billing_address.country": "country",
  metadata: "metadata",
};

const ADDRESS_FIELDS = ["line1", "line2", "postalCode", "city", "state", "country"] as const;

const formValuesOf = (customer: Customer | undefined): CustomerForm => ({
  type: customer?.type ?? "individual",
  email: customer?.email ?? "",
  name: customer?.name ?? "",
  externalId: customer?.external_id ?? "",
  line1: customer?.billing_address?.line1 ?? "",
  line2: customer?.billing_address?.line2 ?? "",
  postalCode: customer?.billing_address?.postal_code ?? "",
  city: customer?.billing_address?.city ?? "",
  state: customer?.billing_address?.state ?? "",
  country: customer?.billing_address?.country ?? "",
  metadata: customer && Object.keys(customer.metadata).length > 0 ? JSON.stringify(customer.metadata) : "",
});

/** Polar's customer fields for what the form holds; an address only with its country. */
const fieldsOf = (form: z.output<typeof customerForm>): CustomerFields => ({
  type: form.type,
  email: form.email,
  name: form.name || null,
  external_id: form.externalId || null,
  billing_address: form.country ? { line1: form.line1 || null, line2: form.line2 || null, postal_code: form.postalCode || null, city: form.city || null, state: form.state || null, country: form.country } : null,
  metadata: parseMetadata(form.metadata) ?? {},
});

/** A dialog to create a customer, or to edit `customer`; what the server refuses is shown next to its field. */
export function CustomerDialog({ customer, trigger }: { customer?: Customer; trigger: ReactNode }) {
  const { formatMessage } = useIntl();
  const [open, setOpen] = useState(false);
  return (
    <FormDialog open={open} onOpenChange={setOpen} trigger={trigger} title={formatMessage(customer ? messages.editTitle : messages.createTitle)}>
      {open && <CustomerFormFields customer={customer} onDone={() => setOpen(false)} />}
    </FormDialog>
  );
}

function CustomerFormFields({ customer, onDone }: { customer?: Customer; onDone: () => void }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const create = useCreateCustomer();
  const update = useUpdateCustomer();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<CustomerForm, unknown, z.output<typeof customerForm>>({ resolver: zodResolver(customerForm), defaultValues: formValuesOf(customer) });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const fields = fieldsOf(values);
    // An external id, once set, cannot change: it is sent only while it is missing. A type is sent only when it changes (a customer becomes a team).
    const { external_id, type, ...rest } = fields;
    const change = { ...rest, ...(!customer?.external_id && external_id && { external_id }), ...(type !== customer?.type && { type }) };
    try {
      await (customer ? update.mutateAsync({ id: customer.id, change }) : create.mutateAsync({ organizationId: seller.id, fields }));
    } catch (reason) {
      return setFailure(placeRefusals(reason, FIELD_OF, form.setError));
    }
    onDone();
  });
  const text = (name: Exclude<keyof CustomerForm, "metadata" | "type">, label: string, extra: { hint?: string; disabled?: boolean; type?: string } = {}) => (
    <Field key={name} label={label} hint={extra.hint} error={errors[name]?.message}>
      {(ids) => <input {...ids} {...form.register(name)} type={extra.type ?? "text"} disabled={extra.disabled} />}
    </Field>
  );
  return (
    <form className="form" onSubmit={(event) => void submit(event)} noValidate>
      <Field label={formatMessage(messages.type)} hint={formatMessage(messages.typeHint)} error={errors.type?.message}>
        {(ids) => (
          <select {...ids} {...form.register("type")}>
            {/* A team stays a team: it is offered nothing else. */}
            {CUSTOMER_TYPES.filter((type) => customer?.type !== "team" || type === "team").map((type) => (
              <option key={type} value={type}>
                {formatMessage(messages.typeName, { type })}
              </option>
            ))}
          </select>
        )}
      </Field>
      {text("email", formatMessage(messages.email), { type: "email" })}
      {text("name", formatMessage(messages.name))}
      {text("externalId", formatMessage(messages.externalId), { hint: formatMessage(messages.externalIdHint), disabled: Boolean(customer?.external_id) })}
      <fieldset className="stack">
        <legend>{formatMessage(messages.address)}</legend>
        {ADDRESS_FIELDS.map((name) => text(name, formatMessage(messages[name])))}
      </fieldset>
      <Field label={formatMessage(messages.metadata)} error={errors.metadata?.message}>
        {(ids) => <textarea {...ids} {...form.register("metadata")} rows={2} />}
      </Field>
      {failure && <Alert tone="error">{failure}</Alert>}
      <FormDialogActions cancelLabel={formatMessage(messages.cancel)} submitLabel={formatMessage(messages.save)} busy={isSubmitting} />
    </form>
  );
}
