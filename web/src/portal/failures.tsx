import { defineMessage } from "react-intl";
import { describeError, failureOf } from "../api/client";
import { t } from "../i18n/translate";

/** A customer session ran out (a seller's link lasts an hour, a code's session a day). */
export const sessionEnded = defineMessage({ id: "portal.sessionEnded", defaultMessage: "Your session has ended. Sign in again to see your purchases." });

/** A rejected portal call in words: a refused token is a session that ended, not a status code. */
export function failureText(reason: unknown) {
  const error = failureOf(reason);
  return error.status === 401 ? t(sessionEnded) : describeError(error);
}
