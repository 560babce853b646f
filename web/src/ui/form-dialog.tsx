import * as Dialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import { Button } from "./components";

/**
 * A dialog around a form, opened by its trigger. The caller holds `open`, so the form can close it
 * once the server has said yes; its own buttons (submit, cancel) are in `children`.
 */
export function FormDialog({ trigger, title, description, open, onOpenChange, children }: { trigger: ReactNode; title: string; description?: ReactNode; open: boolean; onOpenChange: (open: boolean) => void; children: ReactNode }) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" {...(description ? {} : { "aria-describedby": undefined })}>
          <Dialog.Title>{title}</Dialog.Title>
          {description && <Dialog.Description>{description}</Dialog.Description>}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Closes the dialog it is in; for a form's cancel button. */
export const DialogClose = Dialog.Close;

/** A dialog form's buttons: cancel (which closes the dialog) and submit, busy while the form is sent. */
export function FormDialogActions({ cancelLabel, submitLabel, busy, danger = false }: { cancelLabel: string; submitLabel: string; busy: boolean; danger?: boolean }) {
  return (
    <div className="dialog-actions">
      <Dialog.Close asChild>
        <Button variant="secondary">{cancelLabel}</Button>
      </Dialog.Close>
      <Button type="submit" busy={busy} {...(danger ? { variant: "danger" as const } : {})}>
        {submitLabel}
      </Button>
    </div>
  );
}
