import { useState } from "react";
import { describeFailure } from "../api/client";
import { Alert, Button } from "./components";
import { ConfirmDialog } from "./confirm-dialog";

/**
 * A row's delete button: asks first, then deletes, and says in the dialog why it could not.
 * `remove` deletes it (a mutation that refreshes what showed the row) and rejects when it could not.
 */
export function DeleteAction({
  label,
  title,
  description,
  remove,
  name,
}: {
  label: string;
  title: string;
  description: string;
  remove: () => Promise<unknown>;
  /** The button's accessible name, where a list shows many: "Revoke the key deploy". */
  name?: string;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost" aria-label={name} onClick={() => setFailure(null)}>
          {label}
        </Button>
      }
      title={title}
      description={description}
      confirmLabel={label}
      onConfirm={async () => {
        try {
          await remove();
          return true;
        } catch (reason) {
          setFailure(describeFailure(reason));
          return false;
        }
      }}
    >
      {failure && <Alert tone="error">{failure}</Alert>}
    </ConfirmDialog>
  );
}
