import { useFieldArray, type UseFormReturn } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import type { CustomFieldForm } from "./form";
import { Button, Field } from "../../ui/components";

const messages = defineMessages({
  options: { id: "seller.customField.options", defaultMessage: "Options" },
  value: defineMessage<{ number: number }>({ id: "seller.customField.optionValue", defaultMessage: "Value {number}" }),
  label: defineMessage<{ number: number }>({ id: "seller.customField.optionLabel", defaultMessage: "Label {number}" }),
  add: { id: "seller.customField.addOption", defaultMessage: "Add an option" },
  remove: defineMessage<{ number: number }>({ id: "seller.customField.removeOption", defaultMessage: "Remove option {number}" }),
});

/** A select field's options: the value stored and the label buyers see, one or more. */
export function SelectOptions({ form }: { form: UseFormReturn<CustomFieldForm> }) {
  const { formatMessage } = useIntl();
  const options = useFieldArray({ control: form.control, name: "options" });
  const errors = form.formState.errors.options;
  return (
    <fieldset className="fieldset">
      <legend>{formatMessage(messages.options)}</legend>
      {options.fields.map((option, index) => (
        <div className="field-row" key={option.id}>
          <Field label={formatMessage(messages.value, { number: index + 1 })} error={errors?.[index]?.value?.message}>
            {(ids) => <input {...ids} {...form.register(`options.${index}.value`)} autoComplete="off" />}
          </Field>
          <Field label={formatMessage(messages.label, { number: index + 1 })} error={errors?.[index]?.label?.message}>
            {(ids) => <input {...ids} {...form.register(`options.${index}.label`)} autoComplete="off" />}
          </Field>
          {options.fields.length > 1 && (
            <Button variant="ghost" onClick={() => options.remove(index)}>
              {formatMessage(messages.remove, { number: index + 1 })}
            </Button>
          )}
        </div>
      ))}
      <Button variant="secondary" onClick={() => options.append({ value: "", label: "" })}>
        {formatMessage(messages.add)}
      </Button>
    </fieldset>
  );
}
