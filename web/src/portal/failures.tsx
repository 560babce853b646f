import { defineMessage } from "react-intl";
import { describeError, failureOf } from "../api/client";
import { t } from "../i18n/translate";
import type { PortalAccess } from "./api";

const expiredLink = defineMessage<{ seller: string }>({ id: "portal.expiredLink", defaultMessage: "This link has expired. Ask {seller} for a new one." });

/** A rejected portal call in words: a refused token is an expired link (links last an hour), not a status code. */
export function failureText(reason: unknown, access: PortalAccess) {
  const error = failureOf(reason);
  return error.status === 401 ? t(expiredLink, { seller: access.seller.name }) : describeError(error);
}
