import * as Dialog from "@radix-ui/react-dialog";
import { useState, type ReactNode } from "react";
import { defineMessages, FormattedMessage } from "react-intl";
import { Button } from "./components";

// Its own module: the dialog library loads only with the screens that ask before acting.
const messages = defineMessages({
  cancel: { id: "ui.confirm.cancel", defaultMessage: "Cancel" },
});

/** Asks before something that cannot be undone; `onConfirm` resolves when done (the dialog then closes). */
export function ConfirmDialog({
  trigger,
  title,
  description,
  confirmLabel,
  onConfirm,
  children,
}: {
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<boolean>;
  children?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>{title}</Dialog.Title>
          <Dialog.Description>{description}</Dialog.Description>
          {children}
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <Button variant="secondary">
                <FormattedMessage {...messages.cancel} />
              </Button>
            </Dialog.Close>
            <Button
              variant="danger"
              busy={busy}
              onClick={() => {
                setBusy(true);
                void onConfirm().then((done) => {
                  setBusy(false);
                  if (done) setOpen(false);
                });
              }}
            >
              {confirmLabel}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
