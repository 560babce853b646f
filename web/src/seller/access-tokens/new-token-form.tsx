import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { placeRefusals } from "../../forms/refusals";
import { accessTokenForm, TOKEN_LIFETIMES, type AccessTokenForm } from "./form";
import { Alert, Button, Card, Field } from "../../ui/components";
import { ShownOnce } from "../../ui/shown-once";
import { useSeller } from "../space";
import { isScope, SCOPE_RESOURCES } from "./access-tokens-api";
import { useCreateAccessToken } from "./queries";

const messages = defineMessages({
  title: { id: "seller.accessTokens.new.title", defaultMessage: "New access token" },
  description: { id: "seller.accessTokens.new.description", defaultMessage: "Your own systems call Tollgate's API with it, with only the access you give it here." },
  comment: { id: "seller.accessTokens.new.comment", defaultMessage: "What it is for" },
  commentHint: { id: "seller.accessTokens.new.commentHint", defaultMessage: "Such as “shop backend”; only you see it." },
  lifetime: { id: "seller.accessTokens.new.lifetime", defaultMessage: "Expires" },
  lifetimeDays: defineMessage<{ days: string }>({
    id: "seller.accessTokens.new.lifetimeDays",
    defaultMessage: "{days, select, never {Never} other {{days, plural, one {In # day} other {In # days}}}}",
  }),
  scopes: { id: "seller.accessTokens.new.scopes", defaultMessage: "Scopes" },
  scopesHint: { id: "seller.accessTokens.new.scopesHint", defaultMessage: "Read lets the token see a resource; write lets it change it too." },
  read: { id: "seller.accessTokens.new.read", defaultMessage: "Read" },
  write: { id: "seller.accessTokens.new.write", defaultMessage: "Write" },
  everything: { id: "seller.accessTokens.new.everything", defaultMessage: "Choose all" },
  create: { id: "seller.accessTokens.new.create", defaultMessage: "Create token" },
  createdTitle: { id: "seller.accessTokens.created.title", defaultMessage: "Copy your new token now" },
  createdWarning: { id: "seller.accessTokens.created.warning", defaultMessage: "This is the only time it is shown. Keep it somewhere safe: anyone who has it can act for your organization." },
  copyToken: { id: "seller.accessTokens.created.copy", defaultMessage: "Copy the token" },
  done: { id: "seller.accessTokens.created.done", defaultMessage: "I have copied it" },
});

const ALL_SCOPES = SCOPE_RESOURCES.flatMap(({ resource, access }) => access.map((kind) => `${resource}:${kind}`));

/** Polar's `expires_in` for a lifetime in days: an ISO duration, or none. */
const expiresIn = (lifetime: AccessTokenForm["lifetime"]) => (lifetime === "never" ? null : `P${lifetime}D`);

/** A new token: what it is for, when it expires and its scopes by resource; the token is then shown once, with a copy button. */
export function NewTokenForm() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const create = useCreateAccessToken();
  const [failure, setFailure] = useState<string | null>(null);
  const [token, setToken] = useState<string | null>(null);
  const form = useForm<AccessTokenForm>({ resolver: zodResolver(accessTokenForm), defaultValues: { comment: "", lifetime: "30", scopes: [] } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    let created: Awaited<ReturnType<typeof create.mutateAsync>>;
    try {
      created = await create.mutateAsync({ organization_id: seller.id, comment: values.comment, expires_in: expiresIn(values.lifetime), scopes: values.scopes.filter(isScope) });
    } catch (reason) {
      return setFailure(placeRefusals(reason, { comment: "comment", expires_in: "lifetime", scopes: "scopes" }, form.setError));
    }
    setToken(created.token);
    form.reset();
  });
  if (token)
    return (
      <Card title={formatMessage(messages.createdTitle)}>
        <ShownOnce
          secret={token}
          warning={formatMessage(messages.createdWarning)}
          copyLabel={formatMessage(messages.copyToken)}
          doneLabel={formatMessage(messages.done)}
          onDone={() => setToken(null)}
        />
      </Card>
    );
  return (
    <Card title={formatMessage(messages.title)} description={formatMessage(messages.description)}>
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <Field label={formatMessage(messages.comment)} hint={formatMessage(messages.commentHint)} error={errors.comment?.message}>
          {(ids) => <input {...ids} {...form.register("comment")} autoComplete="off" />}
        </Field>
        <Field label={formatMessage(messages.lifetime)} error={errors.lifetime?.message}>
          {(ids) => (
            <select {...ids} {...form.register("lifetime")}>
              {TOKEN_LIFETIMES.map((days) => (
                <option key={days} value={days}>
                  {formatMessage(messages.lifetimeDays, { days })}
                </option>
              ))}
            </select>
          )}
        </Field>
        <fieldset className="scopes" aria-describedby="token-scopes-hint">
          <legend>{formatMessage(messages.scopes)}</legend>
          <p className="hint" id="token-scopes-hint">
            {formatMessage(messages.scopesHint)}
          </p>
          <Button variant="ghost" onClick={() => form.setValue("scopes", ALL_SCOPES, { shouldValidate: form.formState.isSubmitted })}>
            {formatMessage(messages.everything)}
          </Button>
          <div className="scope-grid">
            {SCOPE_RESOURCES.map(({ resource, access }) => (
              <fieldset key={resource} className="scope-group">
                <legend>
                  <code translate="no">{resource}</code>
                </legend>
                {access.map((kind) => (
                  <label key={kind} className="checkbox">
                    <input type="checkbox" value={`${resource}:${kind}`} {...form.register("scopes")} />
                    {formatMessage(messages[kind])}
                  </label>
                ))}
              </fieldset>
            ))}
          </div>
          {errors.scopes?.message && (
            <p className="field-error" role="alert">
              {errors.scopes.message}
            </p>
          )}
        </fieldset>
        {failure && <Alert tone="error">{failure}</Alert>}
        <div className="actions">
          <Button type="submit" busy={isSubmitting}>
            {formatMessage(messages.create)}
          </Button>
        </div>
      </form>
    </Card>
  );
}
