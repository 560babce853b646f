import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useNavigate, useParams } from "@tanstack/react-router";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessages, useIntl } from "react-intl";
import { customFieldChangeOf, customFieldForm, customFieldFormOf, emptyCustomFieldForm, type CustomFieldForm } from "./form";
import { placeRefusals } from "../../forms/refusals";
import { slugify } from "../../forms/slugify";
import { Alert, Field } from "../../ui/components";
import { EditScreen, FormActions, NewScreen } from "../console-screens";
import { useSeller } from "../space";
import { CUSTOM_FIELD_TYPES, type CustomField } from "./custom-fields-api";
import { customFieldQuery, useCreateCustomField, useUpdateCustomField } from "./queries";
import { customFieldTypeLabels } from "./custom-field-type-label";
import { SelectOptions } from "./select-options";

const messages = defineMessages({
  newTitle: { id: "seller.customField.newTitle", defaultMessage: "New custom field" },
  editTitle: { id: "seller.customField.editTitle", defaultMessage: "Edit custom field" },
  intro: { id: "seller.customField.intro", defaultMessage: "Products you attach it to ask buyers for it on the checkout." },
  type: { id: "seller.customField.type", defaultMessage: "Type" },
  name: { id: "seller.customField.name", defaultMessage: "Name" },
  slug: { id: "seller.customField.slug", defaultMessage: "Slug" },
  slugHint: { id: "seller.customField.slugHint", defaultMessage: "The key answers are stored under, in orders and webhooks." },
  label: { id: "seller.customField.label", defaultMessage: "Label on the checkout" },
  labelHint: { id: "seller.customField.labelHint", defaultMessage: "Optional: the name is shown otherwise." },
  helpText: { id: "seller.customField.helpText", defaultMessage: "Help text" },
  placeholder: { id: "seller.customField.placeholder", defaultMessage: "Placeholder" },
  textarea: { id: "seller.customField.textarea", defaultMessage: "Several lines" },
  minLength: { id: "seller.customField.minLength", defaultMessage: "Fewest characters" },
  maxLength: { id: "seller.customField.maxLength", defaultMessage: "Most characters" },
  minimum: { id: "seller.customField.minimum", defaultMessage: "Minimum" },
  maximum: { id: "seller.customField.maximum", defaultMessage: "Maximum" },
  earliest: { id: "seller.customField.earliest", defaultMessage: "Earliest date" },
  latest: { id: "seller.customField.latest", defaultMessage: "Latest date" },
  create: { id: "seller.customField.create", defaultMessage: "Create custom field" },
  save: { id: "seller.customField.save", defaultMessage: "Save changes" },
  cancel: { id: "seller.customField.cancel", defaultMessage: "Cancel" },
  loading: { id: "seller.customField.loading", defaultMessage: "Loading the custom field…" },
});

/** Where the API's refusals go on the form. */
const FIELD_OF: Record<string, keyof CustomFieldForm> = {
  slug: "slug",
  name: "name",
  "properties.form_label": "label",
  "properties.form_help_text": "helpText",
  "properties.form_placeholder": "placeholder",
  "properties.min_length": "min",
  "properties.max_length": "max",
  "properties.ge": "min",
  "properties.le": "max",
  "properties.options": "options",
};

/** Each type's bounds, in words, and how they are typed. */
const BOUNDS = {
  text: { min: messages.minLength, max: messages.maxLength, input: "text" },
  number: { min: messages.minimum, max: messages.maximum, input: "text" },
  date: { min: messages.earliest, max: messages.latest, input: "date" },
} as const;

function CustomFieldEditor({ field }: { field?: CustomField }) {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const navigate = useNavigate();
  const create = useCreateCustomField();
  const update = useUpdateCustomField();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<CustomFieldForm>({ resolver: zodResolver(customFieldForm), defaultValues: field ? customFieldFormOf(field) : emptyCustomFieldForm() });
  const { errors, isSubmitting, dirtyFields } = form.formState;
  const type = form.watch("type");
  const bounds = type === "text" || type === "number" || type === "date" ? BOUNDS[type] : null;
  const toList = () => navigate({ to: "/$slug/custom-fields", params: { slug: seller.slug } });
  const submit = form.handleSubmit(async (values) => {
    const change = customFieldChangeOf(values);
    try {
      await (field ? update.mutateAsync({ id: field.id, change }) : create.mutateAsync({ organizationId: seller.id, change }));
    } catch (reason) {
      return setFailure(placeRefusals(reason, FIELD_OF, form.setError));
    }
    await toList();
  });
  const name = form.register("name");
  return (
    <form className="card form" onSubmit={(event) => void submit(event)} noValidate>
      {!field && (
        <Field label={formatMessage(messages.type)}>
          {(ids) => (
            <select {...ids} {...form.register("type")}>
              {CUSTOM_FIELD_TYPES.map((option) => (
                <option key={option} value={option}>
                  {formatMessage(customFieldTypeLabels[option])}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Field label={formatMessage(messages.name)} error={errors.name?.message}>
        {(ids) => (
          <input
            {...ids}
            {...name}
            autoComplete="off"
            onChange={(event) => {
              void name.onChange(event);
              // A new field's slug follows its name until the seller types one.
              if (!field && !dirtyFields.slug) form.setValue("slug", slugify(event.target.value).replace(/-/g, "_"));
            }}
          />
        )}
      </Field>
      <Field label={formatMessage(messages.slug)} hint={formatMessage(messages.slugHint)} error={errors.slug?.message}>
        {(ids) => <input {...ids} {...form.register("slug")} autoComplete="off" spellCheck={false} />}
      </Field>
      <Field label={formatMessage(messages.label)} hint={formatMessage(messages.labelHint)} error={errors.label?.message}>
        {(ids) => <input {...ids} {...form.register("label")} autoComplete="off" />}
      </Field>
      <Field label={formatMessage(messages.helpText)} error={errors.helpText?.message}>
        {(ids) => <input {...ids} {...form.register("helpText")} autoComplete="off" />}
      </Field>
      {type !== "checkbox" && (
        <Field label={formatMessage(messages.placeholder)} error={errors.placeholder?.message}>
          {(ids) => <input {...ids} {...form.register("placeholder")} autoComplete="off" />}
        </Field>
      )}
      {type === "text" && (
        <label className="checkbox">
          <input type="checkbox" {...form.register("textarea")} />
          {formatMessage(messages.textarea)}
        </label>
      )}
      {bounds && (
        <div className="field-row">
          <Field label={formatMessage(bounds.min)} error={errors.min?.message}>
            {(ids) => <input {...ids} {...form.register("min")} type={bounds.input} inputMode={bounds.input === "text" ? "numeric" : undefined} />}
          </Field>
          <Field label={formatMessage(bounds.max)} error={errors.max?.message}>
            {(ids) => <input {...ids} {...form.register("max")} type={bounds.input} inputMode={bounds.input === "text" ? "numeric" : undefined} />}
          </Field>
        </div>
      )}
      {type === "select" && <SelectOptions form={form} />}
      {failure && <Alert tone="error">{failure}</Alert>}
      <FormActions busy={isSubmitting} submit={formatMessage(field ? messages.save : messages.create)} cancel={formatMessage(messages.cancel)} onCancel={() => void toList()} />
    </form>
  );
}

export function NewCustomFieldScreen() {
  const { formatMessage } = useIntl();
  return (
    <NewScreen title={formatMessage(messages.newTitle)} intro={formatMessage(messages.intro)}>
      <CustomFieldEditor />
    </NewScreen>
  );
}

export function EditCustomFieldScreen() {
  const { formatMessage } = useIntl();
  const { id } = useParams({ strict: false });
  const field = useQuery(customFieldQuery(id ?? ""));
  return (
    <EditScreen title={formatMessage(messages.editTitle)} loading={messages.loading} loaded={field} nameOf={(loaded) => loaded.name}>
      {(loaded) => <CustomFieldEditor field={loaded} />}
    </EditScreen>
  );
}
