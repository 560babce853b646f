import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { placeRefusals } from "../../forms/refusals";
import { webhookEndpointForm, type WebhookEndpointForm } from "./form";
import { Button, Field } from "../../ui/components";
import { FormFooter } from "../../ui/form-footer";
import type { Outcome } from "../../ui/outcome";
import { API_VERSIONS, NEWEST_API_VERSION, WEBHOOK_EVENT_TYPES, WEBHOOK_FORMATS, type WebhookEndpoint } from "./webhooks-api";

const newest = defineMessage<{ version: string }>({ id: "seller.webhooks.form.apiVersion.newest", defaultMessage: "{version} (newest)" });

const messages = defineMessages({
  url: { id: "seller.webhooks.form.url", defaultMessage: "Endpoint URL" },
  urlHint: { id: "seller.webhooks.form.urlHint", defaultMessage: "Tollgate sends each event there as a signed POST request." },
  format: { id: "seller.webhooks.form.format", defaultMessage: "Format" },
  raw: { id: "seller.webhooks.form.format.raw", defaultMessage: "Raw JSON" },
  discord: { id: "seller.webhooks.form.format.discord", defaultMessage: "Discord message" },
  slack: { id: "seller.webhooks.form.format.slack", defaultMessage: "Slack message" },
  apiVersion: { id: "seller.webhooks.form.apiVersion", defaultMessage: "API version" },
  apiVersionHint: {
    id: "seller.webhooks.form.apiVersionHint",
    defaultMessage: "Events are shaped as this dated version of Polar's API describes them, and each delivery names it in its webhook-api-version header.",
  },
  events: { id: "seller.webhooks.form.events", defaultMessage: "Events to send" },
  selectAll: { id: "seller.webhooks.form.selectAll", defaultMessage: "Select all" },
  clear: { id: "seller.webhooks.form.clear", defaultMessage: "Clear" },
  cancel: { id: "seller.webhooks.form.cancel", defaultMessage: "Cancel" },
});

/** Where the API's refusals go on the form. */
const FIELD_OF: Record<string, keyof WebhookEndpointForm> = { url: "url", format: "format", api_version: "api_version", events: "events" };

/**
 * An endpoint's address, format, API version and events, to create one or change it: checked as the API checks
 * them, the API's refusals next to their fields. `onSave` sends it; `onSaved` follows a success, and
 * `savedText` is said beside the button after it when the form stays on screen.
 */
export function EndpointForm({
  endpoint,
  submitLabel,
  savedText,
  onSave,
  onSaved,
  onCancel,
}: {
  endpoint?: WebhookEndpoint;
  submitLabel: string;
  savedText?: string;
  onSave: (values: WebhookEndpointForm) => Promise<WebhookEndpoint>;
  onSaved?: (saved: WebhookEndpoint) => void | Promise<void>;
  onCancel?: () => void;
}) {
  const { formatMessage } = useIntl();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const form = useForm<WebhookEndpointForm>({
    resolver: zodResolver(webhookEndpointForm),
    defaultValues: { url: endpoint?.url ?? "", format: endpoint?.format ?? "raw", api_version: endpoint?.api_version ?? NEWEST_API_VERSION, events: endpoint?.events ?? [] },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setOutcome(null);
    let saved: WebhookEndpoint;
    try {
      saved = await onSave(values);
    } catch (reason) {
      const failure = placeRefusals(reason, FIELD_OF, form.setError);
      return setOutcome(failure ? { tone: "error", text: failure } : null);
    }
    await onSaved?.(saved);
    if (savedText) setOutcome({ tone: "success", text: savedText });
  });
  return (
    <form className="form" onSubmit={(event) => void submit(event)} noValidate>
      <Field label={formatMessage(messages.url)} hint={formatMessage(messages.urlHint)} error={errors.url?.message}>
        {(ids) => <input {...ids} {...form.register("url")} type="url" inputMode="url" autoComplete="off" />}
      </Field>
      <Field label={formatMessage(messages.format)} error={errors.format?.message}>
        {(ids) => (
          <select {...ids} {...form.register("format")}>
            {WEBHOOK_FORMATS.map((format) => (
              <option key={format} value={format}>
                {formatMessage(messages[format])}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={formatMessage(messages.apiVersion)} hint={formatMessage(messages.apiVersionHint)} error={errors.api_version?.message}>
        {(ids) => (
          <select {...ids} {...form.register("api_version")}>
            {[...API_VERSIONS].reverse().map((version) => (
              <option key={version} value={version}>
                {version === NEWEST_API_VERSION ? formatMessage(newest, { version }) : version}
              </option>
            ))}
          </select>
        )}
      </Field>
      <fieldset className="event-types" aria-describedby={errors.events ? "webhook-events-error" : undefined}>
        <legend>{formatMessage(messages.events)}</legend>
        <div className="actions event-type-actions">
          <Button type="button" variant="ghost" onClick={() => form.setValue("events", [...WEBHOOK_EVENT_TYPES], { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}>
            {formatMessage(messages.selectAll)}
          </Button>
          <Button type="button" variant="ghost" onClick={() => form.setValue("events", [], { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}>
            {formatMessage(messages.clear)}
          </Button>
        </div>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} className="checkbox">
            <input type="checkbox" value={type} {...form.register("events")} />
            <code>{type}</code>
          </label>
        ))}
      </fieldset>
      {errors.events && (
        <p className="field-error" id="webhook-events-error">
          {errors.events.message}
        </p>
      )}
      <FormFooter outcome={outcome}>
        <Button type="submit" busy={isSubmitting}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button type="button" variant="secondary" onClick={onCancel}>
            {formatMessage(messages.cancel)}
          </Button>
        )}
      </FormFooter>
    </form>
  );
}
