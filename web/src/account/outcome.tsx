import type { ApiResult } from "../api/client";
import { describeError } from "../api/client";
import { Alert } from "../ui/components";

/** The outcome of the last submit of a form: nothing yet, a failure in words, or a confirmation. */
export type Outcome = { tone: "error" | "success"; text: string } | null;
export const outcomeOf = (result: ApiResult<unknown>, success: string): Outcome => (result.error ? { tone: "error", text: describeError(result.error) } : { tone: "success", text: success });
export const OutcomeAlert = ({ outcome }: { outcome: Outcome }) => (outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null);
