import { useState } from "react";
import { describeError, type ApiResult } from "../api/client";
import { Alert, Button } from "./components";
import { ConfirmDialog } from "./confirm-dialog";

/**
 * A row's delete button: asks first, then deletes, and says in the dialog why it could not.
 * `remove` is the API call; `onRemoved` refreshes what showed the row.
 */
export function DeleteAction({ label, title, description, remove, onRemoved }: { label: string; title: string; description: string; remove: () => Promise<ApiResult<unknown>>; onRemoved: () => Promise<void> }) {
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost" onClick={() => setFailure(null)}>
          {label}
        </Button>
      }
      title={title}
      description={description}
      confirmLabel={label}
      onConfirm={async () => {
        const result = await remove();
        if (result.error) {
          setFailure(describeError(result.error));
          return false;
        }
        await onRemoved();
        return true;
      }}
    >
      {failure && <Alert tone="error">{failure}</Alert>}
    </ConfirmDialog>
  );
}
