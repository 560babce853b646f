import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { describeFailure } from "../api/client";
import { Alert, Button, Field } from "../ui/components";
import { ShownOnce } from "../ui/shown-once";
import { apiKeyForm, expiresIn, KEY_LIFETIMES, type ApiKeyForm } from "./form";
import { useCreateApiKey, type KeyOwner } from "./queries";

const messages = defineMessages({
  name: { id: "apiKeys.new.name", defaultMessage: "Key name" },
  nameHint: { id: "apiKeys.new.nameHint", defaultMessage: "Such as “deploy script”, so you know which key to revoke." },
  lifetime: { id: "apiKeys.new.lifetime", defaultMessage: "Expires" },
  lifetimeDays: defineMessage<{ days: string }>({
    id: "apiKeys.new.lifetimeDays",
    defaultMessage: "{days, select, never {Never} other {{days, plural, one {In # day} other {In # days}}}}",
  }),
  create: { id: "apiKeys.new.create", defaultMessage: "Create key" },
  createdTitle: { id: "apiKeys.created.title", defaultMessage: "Copy your new key now" },
  createdWarning: { id: "apiKeys.created.warning", defaultMessage: "This is the only time it is shown. Anyone who has it can act as its owner: keep it somewhere safe." },
  copyKey: { id: "apiKeys.created.copy", defaultMessage: "Copy the key" },
  done: { id: "apiKeys.created.done", defaultMessage: "I have copied it" },
});

/** A new key, named and given a lifetime; the key is then shown once, with a copy button. */
export function NewApiKeyForm({ owner }: { owner: KeyOwner }) {
  const { formatMessage } = useIntl();
  const create = useCreateApiKey();
  const [failure, setFailure] = useState<string | null>(null);
  const [key, setKey] = useState<string | null>(null);
  const form = useForm<ApiKeyForm>({ resolver: zodResolver(apiKeyForm), defaultValues: { name: "", lifetime: "90" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const created = await create.mutateAsync({ ...owner, name: values.name, expiresIn: expiresIn(values.lifetime) });
      setKey(created.key);
      form.reset();
    } catch (reason) {
      setFailure(describeFailure(reason));
    }
  });
  if (key)
    return (
      <div className="stack">
        <strong>{formatMessage(messages.createdTitle)}</strong>
        <ShownOnce
          secret={key}
          warning={formatMessage(messages.createdWarning)}
          copyLabel={formatMessage(messages.copyKey)}
          doneLabel={formatMessage(messages.done)}
          onDone={() => setKey(null)}
        />
      </div>
    );
  return (
    <form className="form" onSubmit={(event) => void submit(event)} noValidate>
      <Field label={formatMessage(messages.name)} hint={formatMessage(messages.nameHint)} error={errors.name?.message}>
        {(ids) => <input {...ids} {...form.register("name")} autoComplete="off" maxLength={32} />}
      </Field>
      <Field label={formatMessage(messages.lifetime)} error={errors.lifetime?.message}>
        {(ids) => (
          <select {...ids} {...form.register("lifetime")}>
            {KEY_LIFETIMES.map((days) => (
              <option key={days} value={days}>
                {formatMessage(messages.lifetimeDays, { days })}
              </option>
            ))}
          </select>
        )}
      </Field>
      {failure && <Alert tone="error">{failure}</Alert>}
      <div className="actions">
        <Button type="submit" busy={isSubmitting}>
          {formatMessage(messages.create)}
        </Button>
      </div>
    </form>
  );
}
