import { useId, useState, type ReactNode } from "react";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { Button } from "./components";

const messages = defineMessages({
  none: { id: "ui.filters.toggle", defaultMessage: "Filters" },
  some: defineMessage<{ active: number }>({ id: "ui.filters.toggleSet", defaultMessage: "Filters ({active, number})" }),
});

/**
 * A list's filters: inline on a wide window; on a phone (styles.css) folded behind one button that
 * says how many are set, so the list starts on the first screen.
 */
export function Filters({ active, role = "search", label, children }: { active: number; role?: "search" | "group"; label?: string; children: ReactNode }) {
  const { formatMessage } = useIntl();
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="filters-fold">
      <Button variant="secondary" className="filters-toggle" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {active === 0 ? formatMessage(messages.none) : formatMessage(messages.some, { active })}
      </Button>
      <div id={id} className="filters" role={role} aria-label={label} data-open={open}>
        {children}
      </div>
    </div>
  );
}
