import { defineMessage } from "react-intl";
import { describeError, failureOf } from "../api/client";
import { t } from "../i18n/translate";
import type { PortalAccess } from "./api";

const expiredLink = defineMessage<{ seller: string }>({ id: "portal.expiredLink", defaultMessage: "This link has expired. Ask {seller} for a new one." });

/** What the customer can do when the portal no longer opens for them: links last an hour. */
export const expiredLinkText = (sellerName: string) => t(expiredLink, { seller: sellerName });

/** A rejected portal call in words: a refused token is an expired link, not a status code. */
export function failureText(reason: unknown, access: PortalAccess) {
  const error = failureOf(reason);
  return error.status === 401 ? expiredLinkText(access.seller.name) : describeError(error);
}
