import { useState } from "react";
import { defineMessages, useIntl } from "react-intl";

const messages = defineMessages({
  day: { id: "ui.dateInput.day", defaultMessage: "Day" },
  month: { id: "ui.dateInput.month", defaultMessage: "Month" },
  year: { id: "ui.dateInput.year", defaultMessage: "Year" },
});

type Part = "day" | "month" | "year";
type Parts = Record<Part, string>;

const EMPTY: Parts = { day: "", month: "", year: "" };
const pad = (value: number) => String(value).padStart(2, "0");
const partsOf = (value: string): Parts => {
  const [year = "", month = "", day = ""] = /^\d{4}-\d{2}-\d{2}$/.test(value) ? value.split("-") : [];
  return year ? { year, month: String(Number(month)), day: String(Number(day)) } : EMPTY;
};
/** The date the parts make (YYYY-MM-DD), or "" while one is missing or the day is past the month's end. */
function dateOf({ year, month, day }: Parts): string {
  if (!year || !month || !day) return "";
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return date.getUTCMonth() === Number(month) - 1 ? `${year}-${pad(Number(month))}-${pad(Number(day))}` : "";
}

/** The order the page's language writes a date in: day first in Turkish or Ukrainian, month first in American English. */
function orderOf(locale: string): Part[] {
  const parts = new Intl.DateTimeFormat(locale, { year: "numeric", month: "2-digit", day: "2-digit", timeZone: "UTC" }).formatToParts(Date.UTC(2026, 10, 29));
  return parts.map((part) => part.type).filter((type): type is Part => type === "day" || type === "month" || type === "year");
}

const thisYear = new Date().getFullYear();

/**
 * A calendar day chosen as day, month and year in the order and words of the page's language. The
 * browser's own date input follows the browser's language rather than the page's (mm/dd/yyyy in a
 * Turkish page), so it is not used. `value` and `onChange` speak YYYY-MM-DD, "" for no date.
 */
export function DateInput({
  ids,
  value,
  onChange,
  min,
  max,
}: {
  ids: { id: string; "aria-describedby"?: string; "aria-invalid"?: boolean };
  value: string;
  onChange: (value: string) => void;
  min?: string;
  max?: string;
}) {
  const intl = useIntl();
  const [parts, setParts] = useState<Parts>(() => partsOf(value));
  const [told, setTold] = useState(value);
  // A value set from outside (a reset, a preset) replaces what was being chosen.
  if (value !== told) {
    setTold(value);
    setParts(partsOf(value));
  }
  const choose = (part: Part, chosen: string) => {
    const next = { ...parts, [part]: chosen };
    setParts(next);
    const date = dateOf(next);
    setTold(date);
    onChange(date);
  };
  const firstYear = min ? Number(min.slice(0, 4)) : thisYear - 10;
  const lastYear = max ? Number(max.slice(0, 4)) : thisYear + 10;
  const options: Record<Part, { value: string; label: string }[]> = {
    day: Array.from({ length: 31 }, (_, index) => ({ value: String(index + 1), label: intl.formatNumber(index + 1) })),
    month: Array.from({ length: 12 }, (_, index) => ({ value: String(index + 1), label: intl.formatDate(Date.UTC(2026, index, 1), { month: "long", timeZone: "UTC" }) })),
    year: Array.from({ length: Math.max(0, lastYear - firstYear + 1) }, (_, index) => ({ value: String(firstYear + index), label: String(firstYear + index) })),
  };
  return (
    <span className="date-input">
      {orderOf(intl.locale).map((part, index) => (
        <select
          key={part}
          {...(index === 0 ? ids : { "aria-describedby": ids["aria-describedby"], "aria-invalid": ids["aria-invalid"] })}
          aria-label={intl.formatMessage(messages[part])}
          value={parts[part]}
          onChange={(event) => choose(part, event.target.value)}
        >
          <option value="">{intl.formatMessage(messages[part])}</option>
          {options[part].map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      ))}
    </span>
  );
}
