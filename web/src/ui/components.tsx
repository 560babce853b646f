import { useId, type ButtonHTMLAttributes, type ReactNode } from "react";
import { FormattedMessage, type MessageDescriptor } from "react-intl";

type ButtonVariant = "primary" | "secondary" | "danger" | "ghost";

/** A button that says when it is working: disabled, with a spinner and `aria-busy`. */
export function Button({ variant = "primary", busy = false, children, disabled, ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant; busy?: boolean }) {
  return (
    <button type="button" {...rest} className={`button button-${variant} ${rest.className ?? ""}`} disabled={disabled || busy} aria-busy={busy || undefined}>
      {busy && <span className="spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}

/**
 * A labelled form control with its hint and error wired for screen readers. `children` receives the
 * ids to put on the input.
 */
export function Field({ label, hint, error, children }: { label: string; hint?: ReactNode; error?: string; children: (ids: { id: string; "aria-describedby"?: string; "aria-invalid"?: boolean }) => ReactNode }) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, "aria-describedby": describedBy, "aria-invalid": error ? true : undefined })}
      {hint && (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A message about what just happened: an error is announced at once, anything else politely. */
export function Alert({ tone, children }: { tone: "error" | "success" | "info"; children: ReactNode }) {
  return (
    <div className={`alert alert-${tone}`} role={tone === "error" ? "alert" : "status"}>
      {children}
    </div>
  );
}

/** Said while something loads: `message` is the whole sentence, such as "Loading your session…". */
export function Loading({ message }: { message: MessageDescriptor }) {
  return (
    <p className="loading" role="status">
      <span className="spinner" aria-hidden="true" /> <FormattedMessage {...message} />
    </p>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      {children}
    </div>
  );
}

export function Page({ title, description, actions, children }: { title: string; description?: ReactNode; actions?: ReactNode; children: ReactNode }) {
  return (
    <section className="page">
      <div className="page-header">
        <div>
          <h1>{title}</h1>
          {description && <p className="muted">{description}</p>}
        </div>
        {actions && <div className="page-actions">{actions}</div>}
      </div>
      {children}
    </section>
  );
}

export function Card({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {description && <p className="muted">{description}</p>}
      {children}
    </section>
  );
}

