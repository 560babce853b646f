import { Button } from "../../ui/components";
import { FormFooter } from "../../ui/form-footer";
import type { Outcome } from "../../ui/outcome";
import { useSeller } from "../space";

/** Under each settings form: its save button for a member who may change settings, and how saving went beside it. */
export function SettingsFormFooter({ outcome, busy, save }: { outcome: Outcome; busy: boolean; save: string }) {
  const seller = useSeller();
  return (
    <FormFooter outcome={outcome}>
      {seller.mayChange && (
        <Button type="submit" busy={busy}>
          {save}
        </Button>
      )}
    </FormFooter>
  );
}
