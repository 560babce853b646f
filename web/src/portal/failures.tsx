import type { UseQueryResult } from "@tanstack/react-query";
import { defineMessage, type MessageDescriptor } from "react-intl";
import { type ApiFailure, describeError, failureOf } from "../api/client";
import { t } from "../i18n/translate";
import { Alert, Loading } from "../ui/components";
import type { PortalAccess } from "./api";

const expiredLink = defineMessage<{ seller: string }>({ id: "portal.expiredLink", defaultMessage: "This link has expired. Ask {seller} for a new one." });

/** What the customer can do when the portal no longer opens for them: links last an hour. */
export const expiredLinkText = (sellerName: string) => t(expiredLink, { seller: sellerName });

/** A rejected portal call in words: a refused token is an expired link, not a status code. */
export function failureText(reason: unknown, access: PortalAccess) {
  const error = failureOf(reason);
  return error.status === 401 ? expiredLinkText(access.seller.name) : describeError(error);
}

/** A portal read still under way or failed, said where what it reads will show. */
export function Unread({ query, loading, access }: { query: UseQueryResult<unknown, ApiFailure>; loading: MessageDescriptor; access: PortalAccess }) {
  if (query.error) return <Alert tone="error">{failureText(query.error, access)}</Alert>;
  return query.isPending ? <Loading message={loading} /> : null;
}
