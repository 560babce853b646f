import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import type { UseFormReturn } from "react-hook-form";
import { defineMessage, defineMessages, useIntl, type MessageDescriptor } from "react-intl";
import type { ApiFailure, Listing } from "../../api/client";
import { Button } from "../../ui/components";
import { FormDialog } from "../../ui/form-dialog";
import { QueryState } from "../../ui/query-state";
import { BenefitEditor } from "../benefits/benefit-editor";
import type { Benefit } from "../benefits/benefits-api";
import type { ProductForm } from "./form";
import { benefitPicker, customFieldPicker } from "./queries";

const messages = defineMessages({
  benefits: { id: "seller.productForm.benefits", defaultMessage: "Benefits" },
  benefitsHint: { id: "seller.productForm.benefitsHint", defaultMessage: "Granted to each buyer of the product." },
  noBenefits: { id: "seller.productForm.noBenefits", defaultMessage: "No benefits yet. Benefits made for the organization can be granted here." },
  newBenefit: { id: "seller.productForm.newBenefit", defaultMessage: "New benefit" },
  loadingBenefits: { id: "seller.productForm.loadingBenefits", defaultMessage: "Loading benefits…" },
  fields: { id: "seller.productForm.customFields", defaultMessage: "Checkout questions" },
  fieldsHint: { id: "seller.productForm.customFieldsHint", defaultMessage: "Custom fields the checkout asks the buyer to fill in." },
  noFields: { id: "seller.productForm.noCustomFields", defaultMessage: "No custom fields yet. Custom fields made for the organization can be asked here." },
  loadingFields: { id: "seller.productForm.loadingCustomFields", defaultMessage: "Loading custom fields…" },
  required: defineMessage<{ name: string }>({ id: "seller.productForm.fieldRequired", defaultMessage: "{name} must be filled in" }),
});

/** Adds `id` to a list of chosen ids, or takes it out. */
const toggled = (ids: string[], id: string, on: boolean) => (on ? [...ids, id] : ids.filter((other) => other !== id));

/** A picker's section: its title and hint, then the organization's items to pick from, once loaded, or why there are none. */
function PickerSection<Item>({
  title,
  hint,
  loading,
  none,
  list,
  more,
  children,
}: {
  title: string;
  hint: string;
  loading: MessageDescriptor;
  none: string;
  list: UseQueryResult<Listing<Item>, ApiFailure>;
  /** What follows the items, loaded or not: a way to make a new one. */
  more?: ReactNode;
  children: (items: Item[]) => ReactNode;
}) {
  return (
    <fieldset className="plain form-section">
      <legend>
        <h2>{title}</h2>
      </legend>
      <p className="hint">{hint}</p>
      <QueryState query={list} loading={loading} isEmpty={(listing) => listing.items.length === 0} empty={<p className="muted">{none}</p>}>
        {(listing) => <ul className="list-plain">{children(listing.items)}</ul>}
      </QueryState>
      {more}
    </fieldset>
  );
}

/** Which of the organization's benefits the product grants. */
export function BenefitPicker({ form, organizationId }: { form: UseFormReturn<ProductForm>; organizationId: string }) {
  const { formatMessage } = useIntl();
  const benefits = useQuery(benefitPicker(organizationId));
  const chosen = form.watch("benefits");
  const [making, setMaking] = useState(false);
  // Made in a dialog over the product's form, so what was typed there stays; the new benefit is granted at once.
  const made = (benefit: Benefit) => {
    form.setValue("benefits", [...form.getValues("benefits"), benefit.id], { shouldDirty: true });
    setMaking(false);
  };
  const newBenefit = (
    <FormDialog trigger={<Button variant="secondary">{formatMessage(messages.newBenefit)}</Button>} title={formatMessage(messages.newBenefit)} open={making} onOpenChange={setMaking}>
      <BenefitEditor framed={false} onSaved={made} onCancel={() => setMaking(false)} />
    </FormDialog>
  );
  return (
    <PickerSection
      title={formatMessage(messages.benefits)}
      hint={formatMessage(messages.benefitsHint)}
      loading={messages.loadingBenefits}
      none={formatMessage(messages.noBenefits)}
      list={benefits}
      more={newBenefit}
    >
      {(items) =>
          items.map((benefit) => (
            <li key={benefit.id}>
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={chosen.includes(benefit.id)}
                  onChange={(event) => form.setValue("benefits", toggled(chosen, benefit.id, event.target.checked), { shouldDirty: true })}
                />
                {benefit.description}
              </label>
            </li>
          ))
      }
    </PickerSection>
  );
}

/** Which of the organization's custom fields the product's checkout asks, and whether each must be answered. */
export function CustomFieldPicker({ form, organizationId }: { form: UseFormReturn<ProductForm>; organizationId: string }) {
  const { formatMessage } = useIntl();
  const fields = useQuery(customFieldPicker(organizationId));
  const attached = form.watch("customFields");
  const setAttached = (next: ProductForm["customFields"]) => form.setValue("customFields", next, { shouldDirty: true });
  return (
    <PickerSection title={formatMessage(messages.fields)} hint={formatMessage(messages.fieldsHint)} loading={messages.loadingFields} none={formatMessage(messages.noFields)} list={fields}>
      {(items) =>
          items.map((field) => {
            const link = attached.find((candidate) => candidate.id === field.id);
            return (
              <li key={field.id} className="field-row">
                <label className="checkbox">
                  <input
                    type="checkbox"
                    checked={Boolean(link)}
                    onChange={(event) => setAttached(event.target.checked ? [...attached, { id: field.id, required: false }] : attached.filter((other) => other.id !== field.id))}
                  />
                  {field.name}
                </label>
                {link && (
                  <label className="checkbox">
                    <input
                      type="checkbox"
                      checked={link.required}
                      onChange={(event) => setAttached(attached.map((other) => (other.id === field.id ? { ...other, required: event.target.checked } : other)))}
                    />
                    {formatMessage(messages.required, { name: field.name })}
                  </label>
                )}
              </li>
            );
          })
      }
    </PickerSection>
  );
}
