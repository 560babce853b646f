import * as Dialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";

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
