import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useFieldArray, useForm, type FieldPath } from "react-hook-form";
import { defineMessages, useIntl } from "react-intl";
import { placeRefusals } from "../../forms/refusals";
import { Button, Card, Field } from "../../ui/components";
import { QueryState } from "../../ui/query-state";
import { useSeller } from "../space";
import { taxSettingsForm, type TaxSettingsForm as Form, type TaxSettingsValues } from "./form";
import type { Outcome } from "../../ui/outcome";
import { SettingsFormFooter } from "./form-footer";
import { taxSettingsQuery, useTaxSettingsChange } from "./queries";
import type { TaxSettings } from "./settings-api";

const messages = defineMessages({
  title: { id: "seller.settings.tax.title", defaultMessage: "Tax" },
  intro: {
    id: "seller.settings.tax.intro",
    defaultMessage: "Checkouts charge tax where you are registered: the EU's standard VAT rates are built in, other places take the rate you give. Your invoices carry your address and tax number.",
  },
  loading: { id: "seller.settings.tax.loading", defaultMessage: "Loading your tax settings…" },
  line1: { id: "seller.settings.tax.line1", defaultMessage: "Street address" },
  postalCode: { id: "seller.settings.tax.postalCode", defaultMessage: "Postal code" },
  city: { id: "seller.settings.tax.city", defaultMessage: "City" },
  country: { id: "seller.settings.tax.country", defaultMessage: "Country where your business is established" },
  countryHint: { id: "seller.settings.tax.countryHint", defaultMessage: "Two letters, such as FR or US" },
  taxId: { id: "seller.settings.tax.taxId", defaultMessage: "VAT or tax number" },
  behavior: { id: "seller.settings.tax.behavior", defaultMessage: "Prices" },
  location: { id: "seller.settings.tax.location", defaultMessage: "Include tax where that is usual (before tax in the US, Canada and India)" },
  inclusive: { id: "seller.settings.tax.inclusive", defaultMessage: "Always include tax" },
  exclusive: { id: "seller.settings.tax.exclusive", defaultMessage: "Always add tax on top" },
  registrations: { id: "seller.settings.tax.registrations", defaultMessage: "Where you charge tax" },
  none: { id: "seller.settings.tax.none", defaultMessage: "No registrations: checkouts charge no tax." },
  place: { id: "seller.settings.tax.place", defaultMessage: "Country, or EU" },
  state: { id: "seller.settings.tax.state", defaultMessage: "State or province" },
  rate: { id: "seller.settings.tax.rate", defaultMessage: "Rate (%)" },
  standardRate: { id: "seller.settings.tax.standardRate", defaultMessage: "Standard rate" },
  add: { id: "seller.settings.tax.add", defaultMessage: "Add a place" },
  remove: { id: "seller.settings.tax.remove", defaultMessage: "Remove" },
  save: { id: "seller.settings.tax.save", defaultMessage: "Save tax settings" },
  saved: { id: "seller.settings.tax.saved", defaultMessage: "Tax settings saved." },
});

const FIELD_OF: Record<string, FieldPath<Form>> = {
  country: "country",
  tax_id: "taxId",
  "address.line1": "line1",
  "address.postal_code": "postalCode",
  "address.city": "city",
  "address.country": "country",
  default_tax_behavior: "defaultTaxBehavior",
};

/** The form's values from the settings as saved: a rate shown only where the seller set their own. */
function valuesOf(settings: TaxSettings): Form {
  const address = settings.address;
  return {
    line1: address?.line1 ?? "",
    line2: address?.line2 ?? "",
    postalCode: address?.postal_code ?? "",
    city: address?.city ?? "",
    state: address?.state ?? "",
    country: settings.country ?? "",
    taxId: settings.tax_id ?? "",
    defaultTaxBehavior: settings.default_tax_behavior,
    registrations: settings.registrations.map((entry) => ({ country: entry.country, state: entry.state ?? "", rate: entry.standard_rate ? "" : String(entry.rate) })),
  };
}

/** What the form sends: the address in the establishment country, each registration's rate as a number or none. */
function updateOf(values: TaxSettingsValues) {
  const { line1, line2, postalCode, city, state, country } = values;
  const hasAddress = [line1, line2, postalCode, city, state].some(Boolean);
  return {
    country: country || null,
    address: hasAddress && country ? { line1: line1 || null, line2: line2 || null, postal_code: postalCode || null, city: city || null, state: state || null, country } : null,
    tax_id: values.taxId || null,
    default_tax_behavior: values.defaultTaxBehavior,
    registrations: values.registrations.map((entry) => ({ country: entry.country, state: entry.state || null, rate: entry.rate ? Number(entry.rate.replace(",", ".")) : null })),
  };
}

/** Where the seller charges tax, read from and saved to Tollgate's tax settings. */
export function TaxSettingsSection() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const settings = useQuery(taxSettingsQuery(seller.id));
  return (
    <Card title={formatMessage(messages.title)} description={formatMessage(messages.intro)}>
      <QueryState query={settings} loading={messages.loading}>
        {(loaded) => <TaxSettingsFields settings={loaded} />}
      </QueryState>
    </Card>
  );
}

function TaxSettingsFields({ settings }: { settings: TaxSettings }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const change = useTaxSettingsChange(settings.organization_id);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const form = useForm<Form, unknown, TaxSettingsValues>({ resolver: zodResolver(taxSettingsForm), values: valuesOf(settings) });
  const registrations = useFieldArray({ control: form.control, name: "registrations" });
  const { errors } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await change(updateOf(values));
    } catch (reason) {
      // A registration the server refused is marked where it sits in the list.
      const fieldOf: Record<string, FieldPath<Form>> = { ...FIELD_OF };
      values.registrations.forEach((_, index) => {
        for (const field of ["country", "state", "rate"] as const) fieldOf[`registrations.${index}.${field}`] = `registrations.${index}.${field}`;
      });
      return setOutcome({ tone: "error", text: placeRefusals(reason, fieldOf, form.setError) ?? "" });
    }
    setOutcome({ tone: "success", text: formatMessage(messages.saved) });
  });
  return (
    <form className="form" onSubmit={(event) => void submit(event)} noValidate>
      <fieldset disabled={!seller.mayChange} className="plain">
        <Field label={formatMessage(messages.country)} hint={formatMessage(messages.countryHint)} error={errors.country?.message}>
          {(ids) => <input {...ids} {...form.register("country")} maxLength={2} autoComplete="country" />}
        </Field>
        <Field label={formatMessage(messages.line1)} error={errors.line1?.message}>
          {(ids) => <input {...ids} {...form.register("line1")} autoComplete="address-line1" />}
        </Field>
        <div className="field-row">
          <Field label={formatMessage(messages.postalCode)} error={errors.postalCode?.message}>
            {(ids) => <input {...ids} {...form.register("postalCode")} autoComplete="postal-code" />}
          </Field>
          <Field label={formatMessage(messages.city)} error={errors.city?.message}>
            {(ids) => <input {...ids} {...form.register("city")} autoComplete="address-level2" />}
          </Field>
        </div>
        <Field label={formatMessage(messages.taxId)} error={errors.taxId?.message}>
          {(ids) => <input {...ids} {...form.register("taxId")} autoComplete="off" />}
        </Field>
        <Field label={formatMessage(messages.behavior)} error={errors.defaultTaxBehavior?.message}>
          {(ids) => (
            <select {...ids} {...form.register("defaultTaxBehavior")}>
              <option value="location">{formatMessage(messages.location)}</option>
              <option value="inclusive">{formatMessage(messages.inclusive)}</option>
              <option value="exclusive">{formatMessage(messages.exclusive)}</option>
            </select>
          )}
        </Field>
        <h3>{formatMessage(messages.registrations)}</h3>
        {registrations.fields.length === 0 && <p className="muted">{formatMessage(messages.none)}</p>}
        {registrations.fields.map((registration, index) => (
          <div className="field-row tax-registration" key={registration.id}>
            <Field label={formatMessage(messages.place)} error={errors.registrations?.[index]?.country?.message}>
              {(ids) => <input {...ids} {...form.register(`registrations.${index}.country`)} maxLength={2} />}
            </Field>
            <Field label={formatMessage(messages.state)} error={errors.registrations?.[index]?.state?.message}>
              {(ids) => <input {...ids} {...form.register(`registrations.${index}.state`)} maxLength={6} />}
            </Field>
            <Field label={formatMessage(messages.rate)} error={errors.registrations?.[index]?.rate?.message}>
              {(ids) => <input {...ids} {...form.register(`registrations.${index}.rate`)} inputMode="decimal" placeholder={formatMessage(messages.standardRate)} />}
            </Field>
            {seller.mayChange && (
              <Button variant="secondary" onClick={() => registrations.remove(index)}>
                {formatMessage(messages.remove)}
              </Button>
            )}
          </div>
        ))}
        {seller.mayChange && (
          <div className="actions">
            <Button variant="secondary" onClick={() => registrations.append({ country: "", state: "", rate: "" })}>
              {formatMessage(messages.add)}
            </Button>
          </div>
        )}
        <SettingsFormFooter outcome={outcome} busy={form.formState.isSubmitting} save={formatMessage(messages.save)} />
      </fieldset>
    </form>
  );
}
