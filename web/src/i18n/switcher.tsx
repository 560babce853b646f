import { useId } from "react";
import { defineMessages, useIntl } from "react-intl";
import { isLocale, LOCALE_NAMES, LOCALES, PSEUDO_LOCALE, type Locale } from "./index";
import { useLocaleControl } from "./provider";

const messages = defineMessages({
  label: { id: "i18n.switcher.label", defaultMessage: "Language" },
});

/** The pseudo-locale is offered only in development; elsewhere it is reached with `?locale=en-XA`. */
const CHOICES: readonly Locale[] = import.meta.env.DEV ? [...LOCALES, PSEUDO_LOCALE] : LOCALES;

/** The header's language picker: each language by its own name. */
export function LanguageSwitcher() {
  const intl = useIntl();
  const { locale, choose } = useLocaleControl();
  const id = useId();
  return (
    <span className="language-switcher">
      <label htmlFor={id} className="sr-only">
        {intl.formatMessage(messages.label)}
      </label>
      <select
        id={id}
        value={locale}
        onChange={(event) => {
          if (isLocale(event.target.value)) void choose(event.target.value);
        }}
      >
        {CHOICES.map((choice) => (
          <option key={choice} value={choice} lang={choice}>
            {LOCALE_NAMES[choice]}
          </option>
        ))}
      </select>
    </span>
  );
}
