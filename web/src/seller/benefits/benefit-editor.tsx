import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { benefitChangeOf, benefitForm, benefitFormOf, emptyBenefitForm, type BenefitForm } from "./form";
import { placeRefusals } from "../../forms/refusals";
import { Alert, Field } from "../../ui/components";
import { FormActions } from "../console-screens";
import { useSeller } from "../space";
import { BENEFIT_TYPES, isCreatable, type Benefit } from "./benefits-api";
import { useCreateBenefit, useUpdateBenefit } from "./queries";
import { DownloadableFields, LicenseKeyFields, MeterCreditFields, NoteFields } from "./benefit-properties";
import { benefitTypeLabels } from "./benefit-type-label";

const messages = defineMessages({
  type: { id: "seller.benefit.type", defaultMessage: "Type" },
  notYet: defineMessage<{ type: string }>({ id: "seller.benefit.typeNotYet", defaultMessage: "{type} (not available yet)" }),
  description: { id: "seller.benefit.description", defaultMessage: "Description" },
  descriptionHint: { id: "seller.benefit.descriptionHint", defaultMessage: "What customers see, in 3 to 42 characters." },
  create: { id: "seller.benefit.create", defaultMessage: "Create benefit" },
  save: { id: "seller.benefit.save", defaultMessage: "Save changes" },
  cancel: { id: "seller.benefit.cancel", defaultMessage: "Cancel" },
});

/** Where the API's refusals go on the form. */
const FIELD_OF: Record<string, keyof BenefitForm> = {
  description: "description",
  "properties.note": "note",
  "properties.prefix": "prefix",
  "properties.expires.ttl": "ttl",
  "properties.activations.limit": "activationLimit",
  "properties.limit_usage": "limitUsage",
  "properties.files": "files",
  "properties.meter_id": "meterId",
  "properties.units": "units",
};

/**
 * A benefit's form: its type (only when new), description and the type's own settings. `onSaved` gets
 * the benefit as saved; the form may sit in a dialog inside another form (the product's), so its
 * submit goes no further than itself.
 */
export function BenefitEditor({ benefit, onSaved, onCancel, framed = true }: { benefit?: Benefit; onSaved: (saved: Benefit) => unknown; onCancel: () => void; framed?: boolean }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const create = useCreateBenefit();
  const update = useUpdateBenefit();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<BenefitForm>({ resolver: zodResolver(benefitForm), defaultValues: benefit ? benefitFormOf(benefit) : emptyBenefitForm() });
  const { errors, isSubmitting } = form.formState;
  const type = form.watch("type");
  const submit = form.handleSubmit(async (values) => {
    const change = benefitChangeOf(values);
    let saved: Benefit;
    try {
      saved = await (benefit ? update.mutateAsync({ id: benefit.id, change }) : create.mutateAsync({ organizationId: seller.id, change }));
    } catch (reason) {
      return setFailure(placeRefusals(reason, FIELD_OF, form.setError));
    }
    await onSaved(saved);
  });
  return (
    <form
      className={framed ? "card form" : "form"}
      onSubmit={(event) => {
        event.stopPropagation();
        void submit(event);
      }}
      noValidate
    >
      {!benefit && (
        <Field label={formatMessage(messages.type)}>
          {(ids) => (
            <select {...ids} {...form.register("type")}>
              {BENEFIT_TYPES.map((option) => (
                <option key={option} value={option} disabled={!isCreatable(option)}>
                  {isCreatable(option) ? formatMessage(benefitTypeLabels[option]) : formatMessage(messages.notYet, { type: formatMessage(benefitTypeLabels[option]) })}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Field label={formatMessage(messages.description)} hint={formatMessage(messages.descriptionHint)} error={errors.description?.message}>
        {(ids) => <input {...ids} {...form.register("description")} autoComplete="off" />}
      </Field>
      {type === "custom" && <NoteFields form={form} />}
      {type === "license_keys" && <LicenseKeyFields form={form} />}
      {type === "downloadables" && <DownloadableFields form={form} organizationId={seller.id} />}
      {type === "meter_credit" && <MeterCreditFields form={form} organizationId={seller.id} />}
      {failure && <Alert tone="error">{failure}</Alert>}
      <FormActions busy={isSubmitting} submit={formatMessage(benefit ? messages.save : messages.create)} cancel={formatMessage(messages.cancel)} onCancel={onCancel} />
    </form>
  );
}

