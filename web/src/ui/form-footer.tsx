import type { ReactNode } from "react";
import type { Outcome } from "./outcome";

/**
 * The end of a form: its buttons, and how the last save went beside them, where the seller who
 * pressed Save is looking (a long form's top is out of sight by then).
 */
export function FormFooter({ outcome, children }: { outcome: Outcome; children: ReactNode }) {
  return (
    <div className="actions form-footer">
      {children}
      {outcome && (
        <p className={`form-outcome form-outcome-${outcome.tone}`} role={outcome.tone === "error" ? "alert" : "status"}>
          {outcome.text}
        </p>
      )}
    </div>
  );
}
