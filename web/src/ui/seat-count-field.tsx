import type { UseFormRegisterReturn } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import type { SeatBounds } from "../forms/team";
import { Field } from "./components";

const messages = defineMessages({
  count: { id: "ui.team.seats.count", defaultMessage: "Seats" },
  bounds: defineMessage<{ min: number; max: number }>({ id: "ui.team.seats.bounds", defaultMessage: "From {min, number} to {max, number}, as the price allows. Fewer seats than are taken is refused: revoke some first." }),
  unbounded: defineMessage<{ min: number }>({ id: "ui.team.seats.unbounded", defaultMessage: "At least {min, number}, as the price asks. Fewer seats than are taken is refused: revoke some first." }),
});

/** How many seats a subscription should hold, within its price's bounds, which the hint says (the console's seat change and the team owner's in the portal). */
export function SeatCountField({ bounds, field, error }: { bounds: SeatBounds; field: UseFormRegisterReturn; error?: string }) {
  const { formatMessage } = useIntl();
  const hint = bounds.max === null ? formatMessage(messages.unbounded, { min: bounds.min }) : formatMessage(messages.bounds, { min: bounds.min, max: bounds.max });
  return (
    <Field label={formatMessage(messages.count)} hint={hint} error={error}>
      {(ids) => <input {...ids} {...field} type="number" inputMode="numeric" min={bounds.min} max={bounds.max ?? undefined} step={1} />}
    </Field>
  );
}
