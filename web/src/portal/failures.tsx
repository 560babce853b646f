import type { UseQueryResult } from "@tanstack/react-query";
import type { ApiFailure } from "../api/auth-client";
import { describeError, type ApiError } from "../api/client";
import { Alert, Loading } from "../ui/components";
import type { PortalAccess } from "./api";

/** What the customer can do when the portal no longer opens for them: links last an hour. */
export const expiredLinkText = (sellerName: string) => `This link has expired. Ask ${sellerName} for a new one.`;

/** A failed portal call in words: a refused token is an expired link, not a status code. */
export const failureText = (error: ApiError, access: PortalAccess) => (error.status === 401 ? expiredLinkText(access.seller.name) : describeError(error));

/** A portal read still under way or failed, said where what it reads will show. */
export function Unread({ query, what, access }: { query: UseQueryResult<unknown, ApiFailure>; what: string; access: PortalAccess }) {
  if (query.error) return <Alert tone="error">{failureText(query.error.failure, access)}</Alert>;
  return query.isPending ? <Loading what={what} /> : null;
}
