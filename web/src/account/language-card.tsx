import { useState, type FormEvent } from "react";
import { defineMessages, useIntl } from "react-intl";
import type { Session } from "../api/auth-client";
import { type ApiError, describeError, failureOf } from "../api/client";
import { isLocale, LOCALE_NAMES, LOCALES } from "../i18n/index";
import { useLocaleControl } from "../i18n/provider";
import { Button, Card, Field } from "../ui/components";
import { OutcomeAlert } from "../ui/outcome";

const messages = defineMessages({
  title: { id: "account.language.title", defaultMessage: "Language" },
  description: { id: "account.language.description", defaultMessage: "The language of the app on every device you sign in on, and of the mail we send you." },
  notChosen: { id: "account.language.notChosen", defaultMessage: "Not chosen: the browser's language" },
  saved: { id: "account.language.saved", defaultMessage: "Your language is saved." },
  submit: { id: "account.language.submit", defaultMessage: "Save language" },
});

/** The user's saved language (`user.locale`), or none to follow each browser's languages. */
export function LanguageCard({ session }: { session: Session }) {
  const { formatMessage } = useIntl();
  const { choose } = useLocaleControl();
  const [chosen, setChosen] = useState(session.user.locale ?? "");
  const [busy, setBusy] = useState(false);
  // The save's result, put in words when shown: saving may change the language the words are in.
  const [saved, setSaved] = useState<{ failure: ApiError | null } | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      setSaved((await choose(isLocale(chosen) ? chosen : null)) ? { failure: null } : null);
    } catch (reason) {
      setSaved({ failure: failureOf(reason) });
    }
    setBusy(false);
  };
  return (
    <Card title={formatMessage(messages.title)} description={formatMessage(messages.description)}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label={formatMessage(messages.title)}>
          {(ids) => (
            <select {...ids} value={chosen} onChange={(event) => setChosen(event.target.value)}>
              <option value="">{formatMessage(messages.notChosen)}</option>
              {LOCALES.map((locale) => (
                <option key={locale} value={locale} lang={locale}>
                  {LOCALE_NAMES[locale]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <OutcomeAlert outcome={saved && (saved.failure ? { tone: "error", text: describeError(saved.failure) } : { tone: "success", text: formatMessage(messages.saved) })} />
        <Button type="submit" busy={busy}>
          {formatMessage(messages.submit)}
        </Button>
      </form>
    </Card>
  );
}
