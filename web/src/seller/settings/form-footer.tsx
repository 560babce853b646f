import { Alert, Button } from "../../ui/components";
import { useSeller } from "../space";

/** How saving a settings form went, said under it. */
export type SaveOutcome = { tone: "success" | "error"; text: string } | null;

/** Under each settings form: how saving went, and its save button for a member who may change settings. */
export function SettingsFormFooter({ outcome, busy, save }: { outcome: SaveOutcome; busy: boolean; save: string }) {
  const seller = useSeller();
  return (
    <>
      {outcome?.text && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
      {seller.mayChange && (
        <div className="actions">
          <Button type="submit" busy={busy}>
            {save}
          </Button>
        </div>
      )}
    </>
  );
}
