import type { UseFormReturn } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import type { CheckoutForm, CheckoutQuestion, CheckoutValues } from "./form";
import { Field } from "../ui/components";

/** Said under a field the buyer may leave blank. */
export const optional = defineMessage({ id: "checkout.optional", defaultMessage: "Optional" });

const messages = defineMessages({
  choose: { id: "checkout.question.choose", defaultMessage: "Choose…" },
});

/** The seller's questions (Polar's attached custom fields), in the seller's order, each with the input its type calls for. */
export function Questions({ questions, form }: { questions: CheckoutQuestion[]; form: UseFormReturn<CheckoutForm, unknown, CheckoutValues> }) {
  const { formatMessage } = useIntl();
  const errors = form.formState.errors.answers;
  return [...questions]
    .sort((a, b) => a.order - b.order)
    .map(({ custom_field: { slug, name, type, properties }, required }) => {
      const label = properties.form_label ?? name;
      const error = errors?.[slug]?.message;
      const field = form.register(`answers.${slug}`);
      if (type === "checkbox") {
        return (
          <div className="field" key={slug}>
            <label className="checkbox">
              <input type="checkbox" {...field} aria-invalid={error ? true : undefined} aria-describedby={error ? `answer-${slug}-error` : undefined} />
              {label}
            </label>
            {properties.form_help_text && <p className="hint">{properties.form_help_text}</p>}
            {error && (
              <p className="field-error" id={`answer-${slug}-error`}>
                {error}
              </p>
            )}
          </div>
        );
      }
      const hint = [properties.form_help_text, required ? null : formatMessage(optional)].filter(Boolean).join(" · ") || undefined;
      return (
        <Field key={slug} label={label} hint={hint} error={error}>
          {(ids) =>
            type === "select" ? (
              <select {...ids} {...field}>
                <option value="">{formatMessage(messages.choose)}</option>
                {(properties.options ?? []).map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            ) : type === "text" && properties.textarea ? (
              <textarea {...ids} {...field} rows={3} placeholder={properties.form_placeholder} />
            ) : (
              <input {...ids} {...field} type={type === "date" ? "date" : "text"} inputMode={type === "number" ? "numeric" : undefined} placeholder={properties.form_placeholder} />
            )
          }
        </Field>
      );
    });
}
