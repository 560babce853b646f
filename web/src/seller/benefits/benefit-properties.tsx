import { useQuery } from "@tanstack/react-query";
import { useController, type UseFormReturn } from "react-hook-form";
import { defineMessages, useIntl } from "react-intl";
import type { BenefitForm } from "./form";
import { Field } from "../../ui/components";
import { FileUpload } from "../../ui/file-upload";
import { meterPicker } from "../products/queries";
import { downloadableFiles } from "./queries";

const messages = defineMessages({
  note: { id: "seller.benefit.note", defaultMessage: "Note" },
  noteHint: { id: "seller.benefit.noteHint", defaultMessage: "Shown to customers who hold the benefit. Markdown is allowed." },
  prefix: { id: "seller.benefit.prefix", defaultMessage: "Key prefix" },
  prefixHint: { id: "seller.benefit.prefixHint", defaultMessage: "Optional, such as ACME: keys then read ACME-…" },
  expires: { id: "seller.benefit.expires", defaultMessage: "Keys expire" },
  ttl: { id: "seller.benefit.ttl", defaultMessage: "Valid for" },
  timeframe: { id: "seller.benefit.timeframe", defaultMessage: "Unit" },
  day: { id: "seller.benefit.timeframe.day", defaultMessage: "Days" },
  month: { id: "seller.benefit.timeframe.month", defaultMessage: "Months" },
  year: { id: "seller.benefit.timeframe.year", defaultMessage: "Years" },
  activations: { id: "seller.benefit.activations", defaultMessage: "Limit the devices a key is activated on" },
  activationLimit: { id: "seller.benefit.activationLimit", defaultMessage: "Activations per key" },
  customerAdmin: { id: "seller.benefit.customerAdmin", defaultMessage: "Customers may deactivate devices themselves" },
  limitUsage: { id: "seller.benefit.limitUsage", defaultMessage: "Usage limit" },
  limitUsageHint: { id: "seller.benefit.limitUsageHint", defaultMessage: "Optional: how many times a key may be used." },
  upload: { id: "seller.benefit.upload", defaultMessage: "Add a file" },
  filesLabel: { id: "seller.benefit.files", defaultMessage: "Files" },
  remove: { id: "seller.benefit.removeFile", defaultMessage: "Remove" },
  meter: { id: "seller.benefit.meter", defaultMessage: "Meter" },
  chooseMeter: { id: "seller.benefit.chooseMeter", defaultMessage: "Choose a meter" },
  noMeters: { id: "seller.benefit.noMeters", defaultMessage: "This organization has no meters yet: make one first." },
  units: { id: "seller.benefit.units", defaultMessage: "Units credited" },
  unitsHint: { id: "seller.benefit.unitsHint", defaultMessage: "Each period of the subscription, or once for a one-time purchase." },
  rollover: { id: "seller.benefit.rollover", defaultMessage: "Unused units carry over to the next period" },
});

type Form = UseFormReturn<BenefitForm>;

function Checkbox({ form, name, label }: { form: Form; name: "expires" | "activations" | "customerAdmin" | "rollover"; label: string }) {
  return (
    <label className="checkbox">
      <input type="checkbox" {...form.register(name)} />
      {label}
    </label>
  );
}

export function NoteFields({ form }: { form: Form }) {
  const { formatMessage } = useIntl();
  return <Field label={formatMessage(messages.note)} hint={formatMessage(messages.noteHint)}>{(ids) => <textarea {...ids} {...form.register("note")} rows={4} />}</Field>;
}

/** A license key's prefix, lifetime, activations and usage limit; each optional part only when asked for. */
export function LicenseKeyFields({ form }: { form: Form }) {
  const { formatMessage } = useIntl();
  const { errors } = form.formState;
  const [expires, activations] = form.watch(["expires", "activations"]);
  return (
    <>
      <Field label={formatMessage(messages.prefix)} hint={formatMessage(messages.prefixHint)} error={errors.prefix?.message}>
        {(ids) => <input {...ids} {...form.register("prefix")} autoComplete="off" />}
      </Field>
      <Checkbox form={form} name="expires" label={formatMessage(messages.expires)} />
      {expires && (
        <div className="field-row">
          <Field label={formatMessage(messages.ttl)} error={errors.ttl?.message}>
            {(ids) => <input {...ids} {...form.register("ttl")} inputMode="numeric" />}
          </Field>
          <Field label={formatMessage(messages.timeframe)}>
            {(ids) => (
              <select {...ids} {...form.register("timeframe")}>
                {(["day", "month", "year"] as const).map((unit) => (
                  <option key={unit} value={unit}>
                    {formatMessage(messages[unit])}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
      )}
      <Checkbox form={form} name="activations" label={formatMessage(messages.activations)} />
      {activations && (
        <>
          <Field label={formatMessage(messages.activationLimit)} error={errors.activationLimit?.message}>
            {(ids) => <input {...ids} {...form.register("activationLimit")} inputMode="numeric" />}
          </Field>
          <Checkbox form={form} name="customerAdmin" label={formatMessage(messages.customerAdmin)} />
        </>
      )}
      <Field label={formatMessage(messages.limitUsage)} hint={formatMessage(messages.limitUsageHint)} error={errors.limitUsage?.message}>
        {(ids) => <input {...ids} {...form.register("limitUsage")} inputMode="numeric" />}
      </Field>
    </>
  );
}

/** The files a download benefit gives: each uploaded here through the files API, listed with a way to take it out. */
export function DownloadableFields({ form, organizationId }: { form: Form; organizationId: string }) {
  const { formatMessage } = useIntl();
  const { field, fieldState } = useController({ control: form.control, name: "files" });
  const files = useQuery({ ...downloadableFiles(organizationId, field.value), enabled: field.value.length > 0 });
  const nameOf = (id: string) => files.data?.items.find((file) => file.id === id);
  return (
    <fieldset className="fieldset">
      <legend>{formatMessage(messages.filesLabel)}</legend>
      {field.value.length > 0 && (
        <ul className="file-list">
          {field.value.map((id) => (
            <li key={id}>
              <span>{nameOf(id) ? `${nameOf(id)?.name} (${nameOf(id)?.size_readable})` : id}</span>
              <button type="button" className="button button-ghost" onClick={() => field.onChange(field.value.filter((other) => other !== id))}>
                {formatMessage(messages.remove)}
              </button>
            </li>
          ))}
        </ul>
      )}
      <FileUpload service="downloadable" organizationId={organizationId} label={formatMessage(messages.upload)} onUploaded={(file) => field.onChange([...field.value, file.id])} />
      {fieldState.error && <p className="field-error">{fieldState.error.message}</p>}
    </fieldset>
  );
}

/** Which meter a credit benefit tops up, by how many units, and whether leftovers carry over. */
export function MeterCreditFields({ form, organizationId }: { form: Form; organizationId: string }) {
  const { formatMessage } = useIntl();
  const { errors } = form.formState;
  const meters = useQuery(meterPicker(organizationId));
  const choices = meters.data?.items ?? [];
  return (
    <>
      <Field label={formatMessage(messages.meter)} hint={meters.isSuccess && choices.length === 0 ? formatMessage(messages.noMeters) : undefined} error={errors.meterId?.message}>
        {(ids) => (
          <select {...ids} {...form.register("meterId")}>
            <option value="">{formatMessage(messages.chooseMeter)}</option>
            {choices.map((meter) => (
              <option key={meter.id} value={meter.id}>
                {meter.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={formatMessage(messages.units)} hint={formatMessage(messages.unitsHint)} error={errors.units?.message}>
        {(ids) => <input {...ids} {...form.register("units")} inputMode="numeric" />}
      </Field>
      <Checkbox form={form} name="rollover" label={formatMessage(messages.rollover)} />
    </>
  );
}
