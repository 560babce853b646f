import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { defineMessages, useIntl } from "react-intl";
import { countOrNull, licenseKeyLimitsForm, type LicenseKeyLimitsForm } from "./form";
import { placeRefusals } from "../../forms/refusals";
import { Alert, Button, Card, Field } from "../../ui/components";
import { DateInput } from "../../ui/date-input";
import type { LicenseKey } from "./license-keys-api";
import { useUpdateLicenseKey } from "./queries";

const messages = defineMessages({
  title: { id: "seller.licenseKey.limits.title", defaultMessage: "Limits" },
  usage: { id: "seller.licenseKey.limits.usage", defaultMessage: "Uses so far" },
  limitUsage: { id: "seller.licenseKey.limits.limitUsage", defaultMessage: "Most uses" },
  limitActivations: { id: "seller.licenseKey.limits.limitActivations", defaultMessage: "Most devices" },
  noLimit: { id: "seller.licenseKey.limits.noLimit", defaultMessage: "Leave empty for no limit." },
  expiresOn: { id: "seller.licenseKey.limits.expiresOn", defaultMessage: "Works until" },
  noEnd: { id: "seller.licenseKey.limits.noEnd", defaultMessage: "Leave empty for a key that does not expire." },
  save: { id: "seller.licenseKey.limits.save", defaultMessage: "Save limits" },
  saved: { id: "seller.licenseKey.limits.saved", defaultMessage: "Limits saved." },
});

const FIELD_OF: Record<string, keyof LicenseKeyLimitsForm> = { usage: "usage", limit_usage: "limitUsage", limit_activations: "limitActivations", expires_at: "expiresOn" };

/** A key's usage, its limits on uses and devices, and the day it stops working. */
export function LicenseKeyLimits({ licenseKey }: { licenseKey: LicenseKey }) {
  const { formatMessage } = useIntl();
  const update = useUpdateLicenseKey();
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const form = useForm<LicenseKeyLimitsForm>({
    resolver: zodResolver(licenseKeyLimitsForm),
    values: {
      usage: String(licenseKey.usage),
      limitUsage: licenseKey.limit_usage === null ? "" : String(licenseKey.limit_usage),
      limitActivations: licenseKey.limit_activations === null ? "" : String(licenseKey.limit_activations),
      expiresOn: licenseKey.expires_at ? licenseKey.expires_at.slice(0, 10) : "",
    },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync({ id: licenseKey.id, change: {
        usage: Number(values.usage),
        limit_usage: countOrNull(values.limitUsage),
        limit_activations: countOrNull(values.limitActivations),
        // The key works through the whole of its last day, in UTC as the server counts.
        expires_at: values.expiresOn ? `${values.expiresOn}T23:59:59Z` : null,
      } });
    } catch (reason) {
      return setOutcome({ tone: "error", text: placeRefusals(reason, FIELD_OF, form.setError) ?? "" });
    }
    setOutcome({ tone: "success", text: formatMessage(messages.saved) });
  });
  return (
    <Card title={formatMessage(messages.title)}>
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <div className="field-row">
          <Field label={formatMessage(messages.usage)} error={errors.usage?.message}>
            {(ids) => <input {...ids} {...form.register("usage")} inputMode="numeric" />}
          </Field>
          <Field label={formatMessage(messages.limitUsage)} hint={formatMessage(messages.noLimit)} error={errors.limitUsage?.message}>
            {(ids) => <input {...ids} {...form.register("limitUsage")} inputMode="numeric" />}
          </Field>
        </div>
        <div className="field-row">
          <Field label={formatMessage(messages.limitActivations)} hint={formatMessage(messages.noLimit)} error={errors.limitActivations?.message}>
            {(ids) => <input {...ids} {...form.register("limitActivations")} inputMode="numeric" />}
          </Field>
          <Field label={formatMessage(messages.expiresOn)} hint={formatMessage(messages.noEnd)} error={errors.expiresOn?.message}>
            {(ids) => <Controller control={form.control} name="expiresOn" render={({ field }) => <DateInput ids={ids} value={field.value} onChange={field.onChange} />} />}
          </Field>
        </div>
        {outcome?.text && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
        <div className="actions">
          <Button type="submit" busy={isSubmitting}>
            {formatMessage(messages.save)}
          </Button>
        </div>
      </form>
    </Card>
  );
}
