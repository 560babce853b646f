import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm, type Path } from "react-hook-form";
import { defineMessages, useIntl } from "react-intl";
import { INTERVALS, TRIAL_DEFAULTS, productFieldsOf, productForm, type ProductForm } from "./form";
import { placeRefusals } from "../../forms/refusals";
import { Button, Field } from "../../ui/components";
import { FormFooter } from "../../ui/form-footer";
import { BenefitPicker, CustomFieldPicker } from "./attachments";
import { MediaField } from "./media-field";
import { PriceFields } from "./price-fields";

const messages = defineMessages({
  name: { id: "seller.productForm.name", defaultMessage: "Product name" },
  about: { id: "seller.productForm.about", defaultMessage: "Description" },
  aboutHint: { id: "seller.productForm.aboutHint", defaultMessage: "Optional. Markdown is allowed." },
  cycle: { id: "seller.productForm.cycle", defaultMessage: "Billing" },
  cycleLocked: { id: "seller.productForm.cycleLocked", defaultMessage: "A product stays one-time or recurring once made." },
  once: { id: "seller.productForm.cycle.once", defaultMessage: "Once" },
  day: { id: "seller.productForm.cycle.day", defaultMessage: "Every day" },
  week: { id: "seller.productForm.cycle.week", defaultMessage: "Every week" },
  month: { id: "seller.productForm.cycle.month", defaultMessage: "Every month" },
  year: { id: "seller.productForm.cycle.year", defaultMessage: "Every year" },
  intervalCount: { id: "seller.productForm.intervalCount", defaultMessage: "How many of them" },
  intervalCountHint: { id: "seller.productForm.intervalCountHint", defaultMessage: "3 with “Every month” bills every three months." },
  trial: { id: "seller.productForm.trial", defaultMessage: "Free trial" },
  noTrial: { id: "seller.productForm.trial.none", defaultMessage: "No trial" },
  trialDays: { id: "seller.productForm.trial.day", defaultMessage: "Days" },
  trialWeeks: { id: "seller.productForm.trial.week", defaultMessage: "Weeks" },
  trialMonths: { id: "seller.productForm.trial.month", defaultMessage: "Months" },
  trialYears: { id: "seller.productForm.trial.year", defaultMessage: "Years" },
  trialCount: { id: "seller.productForm.trialCount", defaultMessage: "Trial length" },
  metadata: { id: "seller.productForm.metadata", defaultMessage: "Metadata" },
  metadataHint: { id: "seller.productForm.metadataHint", defaultMessage: "Optional. A JSON object your systems read back through the API." },
  cancel: { id: "seller.productForm.cancel", defaultMessage: "Cancel" },
});

const TRIAL_UNITS = { day: messages.trialDays, week: messages.trialWeeks, month: messages.trialMonths, year: messages.trialYears };

/**
 * A product's form, new or changed: checked as the API will check it, the API's refusals shown next
 * to their fields. `onSave` resolves with the API's refusal, or null once saved. A product once made
 * keeps being one-time or recurring (`existing`), as Polar has it.
 */
export function ProductFormView({
  initial,
  existing,
  organizationId,
  readOnly,
  submitLabel,
  saved,
  onSave,
  onCancel,
}: {
  initial: ProductForm;
  existing: boolean;
  organizationId: string;
  readOnly: boolean;
  submitLabel: string;
  /** Said beside the button once saved; the screen keeps it, as the form starts again from the product saved. */
  saved?: string | null;
  /** Saves the product; rejects with what the API refused, which the form places by its fields. */
  onSave: (values: ProductForm) => Promise<void>;
  onCancel: () => void;
}) {
  const { formatMessage } = useIntl();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<ProductForm>({ resolver: zodResolver(productForm), defaultValues: initial });
  const { errors, isSubmitting } = form.formState;
  const interval = form.watch("interval");
  const trialInterval = form.watch("trialInterval");
  const cycles = existing ? (initial.interval ? INTERVALS : (["" as const] as const)) : (["", ...INTERVALS] as const);
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await onSave(values);
    } catch (reason) {
      setFailure(placeRefusals(reason, productFieldsOf(values.prices.length) as Record<string, Path<ProductForm>>, form.setError));
    }
  });
  return (
    <form className="card form" onSubmit={(event) => void submit(event)} noValidate>
      <fieldset className="plain" disabled={readOnly}>
        <Field label={formatMessage(messages.name)} error={errors.name?.message}>
          {(ids) => <input {...ids} {...form.register("name")} />}
        </Field>
        <Field label={formatMessage(messages.about)} hint={formatMessage(messages.aboutHint)} error={errors.description?.message}>
          {(ids) => <textarea {...ids} {...form.register("description")} rows={4} />}
        </Field>
        <div className="field-row">
          <Field label={formatMessage(messages.cycle)} hint={existing ? formatMessage(messages.cycleLocked) : undefined} error={errors.interval?.message}>
            {(ids) => (
              <select {...ids} {...form.register("interval")}>
                {cycles.map((cycle) => (
                  <option key={cycle} value={cycle}>
                    {formatMessage(messages[cycle || "once"])}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {interval && (
            <Field label={formatMessage(messages.intervalCount)} hint={formatMessage(messages.intervalCountHint)} error={errors.intervalCount?.message}>
              {(ids) => <input {...ids} {...form.register("intervalCount")} inputMode="numeric" autoComplete="off" />}
            </Field>
          )}
        </div>
        {interval && (
          <div className="field-row">
            <Field label={formatMessage(messages.trial)} error={errors.trialInterval?.message}>
              {(ids) => (
                <select
                  {...ids}
                  {...form.register("trialInterval", {
                    // A trial's length is shown as soon as it has one, never left to a hidden default.
                    onChange: () => {
                      const unit = form.getValues("trialInterval");
                      if (unit && !form.getValues("trialCount").trim()) form.setValue("trialCount", TRIAL_DEFAULTS[unit]);
                    },
                  })}
                >
                  <option value="">{formatMessage(messages.noTrial)}</option>
                  {INTERVALS.map((unit) => (
                    <option key={unit} value={unit}>
                      {formatMessage(TRIAL_UNITS[unit])}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {trialInterval && (
              <Field label={formatMessage(messages.trialCount)} error={errors.trialCount?.message}>
                {(ids) => <input {...ids} {...form.register("trialCount")} inputMode="numeric" autoComplete="off" />}
              </Field>
            )}
          </div>
        )}
        <PriceFields form={form} organizationId={organizationId} />
        <MediaField form={form} organizationId={organizationId} />
        <CustomFieldPicker form={form} organizationId={organizationId} />
        <BenefitPicker form={form} organizationId={organizationId} />
        <Field label={formatMessage(messages.metadata)} hint={formatMessage(messages.metadataHint)} error={errors.metadata?.message}>
          {(ids) => <textarea {...ids} {...form.register("metadata")} rows={2} spellCheck={false} />}
        </Field>
      </fieldset>
      <FormFooter outcome={failure ? { tone: "error", text: failure } : saved ? { tone: "success", text: saved } : null}>
        {!readOnly && (
          <Button type="submit" busy={isSubmitting}>
            {submitLabel}
          </Button>
        )}
        <Button type="button" variant="secondary" onClick={onCancel}>
          {formatMessage(messages.cancel)}
        </Button>
      </FormFooter>
    </form>
  );
}
