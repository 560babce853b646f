import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { MessageDescriptor } from "react-intl";
import { type ApiFailure, describeError } from "../api/client";
import { Alert, Loading } from "./components";

/**
 * What every screen shows of a query: a placeholder while it first loads, its failure in words, what
 * to say when it holds nothing (`isEmpty`, `empty`), or `children` with the data. A failed refetch
 * keeps the data it had on screen, with the failure above it.
 */
export function QueryState<Data>({
  query,
  loading,
  failure = (error) => describeError(error.failure),
  isEmpty,
  empty,
  children,
}: {
  query: UseQueryResult<Data, ApiFailure>;
  loading: MessageDescriptor;
  /** The failure in words, for a screen that says more than the API did (an expired link, a missing thing). */
  failure?: (error: ApiFailure) => ReactNode;
  isEmpty?: (data: Data) => boolean;
  empty?: ReactNode;
  children: (data: Data) => ReactNode;
}) {
  if (query.isPending) return <Loading message={loading} />;
  const alert = query.error && <Alert tone="error">{failure(query.error)}</Alert>;
  if (query.data === undefined) return alert;
  return (
    <>
      {alert}
      {isEmpty?.(query.data) ? empty : children(query.data)}
    </>
  );
}
