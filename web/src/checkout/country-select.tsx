import { useId, useMemo, useState, type KeyboardEvent } from "react";
import { defineMessage, useIntl } from "react-intl";
import { COUNTRY_CODES } from "./countries";

const noMatch = defineMessage<{ text: string }>({ id: "checkout.country.noMatch", defaultMessage: "No country matches “{text}”" });

interface Country {
  code: string;
  name: string;
}

/** Letters as people type them: no case, no accents ("Åland" is found by "aland"). */
const folded = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .trim();

/** Every country by its name in the page's language, in that language's order. */
function useCountries(): Country[] {
  const { locale } = useIntl();
  return useMemo(() => {
    const names = new Intl.DisplayNames([locale], { type: "region" });
    const order = new Intl.Collator(locale);
    return COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) => order.compare(a.name, b.name));
  }, [locale]);
}

/** The countries whose name holds the typed text (those it starts first), or whose code it is. */
function matching(countries: Country[], text: string): Country[] {
  const typed = folded(text);
  if (!typed) return countries;
  const found = countries.filter((country) => folded(country.name).includes(typed) || country.code.toLowerCase() === typed);
  return [...found.filter((country) => folded(country.name).startsWith(typed)), ...found.filter((country) => !folded(country.name).startsWith(typed))];
}

interface CountrySelectProps {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
  /** The chosen country's two-letter code, or "" before one is chosen. */
  value: string;
  onChange: (code: string) => void;
}

/**
 * A country found by typing its name in the buyer's language (ARIA's combobox with a list): the
 * form gets its two-letter code. Text that names no single country leaves the choice empty.
 */
export function CountrySelect({ value, onChange, ...ids }: CountrySelectProps) {
  const { formatMessage } = useIntl();
  const countries = useCountries();
  const listId = useId();
  // What the buyer is typing; null shows the chosen country's name.
  const [typed, setTyped] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const chosenName = countries.find((country) => country.code === value)?.name ?? "";
  const options = matching(countries, typed ?? "");

  const choose = (country: Country) => {
    onChange(country.code);
    setTyped(null);
    setOpen(false);
  };
  /** Leaving the field settles what was typed: an exact name or code, or the only match. */
  const settle = () => {
    setOpen(false);
    if (typed === null) return;
    const exact = countries.find((country) => folded(country.name) === folded(typed) || country.code.toLowerCase() === folded(typed));
    const only = options.length === 1 ? options[0] : undefined;
    const settled = exact ?? only;
    if (settled) return choose(settled);
    onChange("");
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!open) return setOpen(true);
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((current) => Math.min(Math.max(current + step, 0), Math.max(options.length - 1, 0)));
    } else if (event.key === "Enter" && open) {
      // Enter picks the highlighted country rather than sending the form.
      event.preventDefault();
      const picked = options[active];
      if (picked) choose(picked);
    } else if (event.key === "Escape") {
      setOpen(false);
    }
  };
  const activeOption = open ? options[active] : undefined;
  return (
    <div className="combobox">
      <input
        {...ids}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={activeOption ? `${listId}-${activeOption.code}` : undefined}
        autoComplete="country-name"
        value={typed ?? chosenName}
        onChange={(event) => {
          setTyped(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onClick={() => setOpen(true)}
        onKeyDown={onKeyDown}
        onBlur={settle}
      />
      <ul role="listbox" id={listId} className="combobox-list" hidden={!open}>
        {options.map((country, index) => (
          <li
            key={country.code}
            id={`${listId}-${country.code}`}
            role="option"
            aria-selected={index === active}
            // Picked on press, before the field's blur would settle the typed text instead.
            onMouseDown={(event) => {
              event.preventDefault();
              choose(country);
            }}
          >
            {country.name}
          </li>
        ))}
      </ul>
      {open && options.length === 0 && (
        <p className="combobox-empty" role="status">
          {formatMessage(noMatch, { text: typed ?? "" })}
        </p>
      )}
    </div>
  );
}
