import { failureIn } from "../api/client";
import { Alert } from "./components";

/** The outcome of the last submit of a form: nothing yet, a failure in words, or a confirmation. */
export type Outcome = { tone: "error" | "success"; text: string } | null;
/** Runs a call and says how it went: `success` once it resolves, the failure in words if it rejects. */
export async function outcomeOf(call: Promise<unknown>, success: string): Promise<Outcome> {
  const failure = await failureIn(call);
  return failure === null ? { tone: "success", text: success } : { tone: "error", text: failure };
}
export const OutcomeAlert = ({ outcome }: { outcome: Outcome }) => (outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null);
