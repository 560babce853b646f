import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { MessageDescriptor } from "react-intl";
import { type ApiFailure, describeError } from "../api/client";
import { Alert, Loading } from "./components";

/** What QueryState reads of a query: one `useQuery` result, or several read as one (`together`). */
export type ShownQuery<Data> = Pick<UseQueryResult<Data, ApiFailure>, "isPending" | "error" | "data">;

/**
 * What every screen shows of a query: a placeholder while it first loads, its failure in words, what
 * to say when it holds nothing (`isEmpty`, `empty`), or `children` with the data. A failed refetch
 * keeps the data it had on screen, with the failure above it.
 */
export function QueryState<Data>({
  query,
  loading,
  failure = (error) => describeError(error.failure),
  framed = (alert) => alert,
  isEmpty,
  empty,
  children,
}: {
  query: ShownQuery<Data>;
  loading: MessageDescriptor;
  /**
   * The failure in words, for a screen that says more than the API did (an expired link, a missing
   * thing); `null` for a failure that only means there is nothing to show (no test clock in live mode).
   */
  failure?: (error: ApiFailure) => ReactNode;
  /** The page around a failure that leaves nothing to show: its title, and where to go from there. */
  framed?: (alert: ReactNode, error: ApiFailure) => ReactNode;
  isEmpty?: (data: Data) => boolean;
  empty?: ReactNode;
  children: (data: Data) => ReactNode;
}) {
  if (query.isPending) return <Loading message={loading} />;
  const said = query.error && failure(query.error);
  const alert = said !== null && said !== undefined && said !== false && <Alert tone="error">{said}</Alert>;
  if (query.data === undefined) return alert && query.error ? framed(alert, query.error) : null;
  return (
    <>
      {alert}
      {isEmpty?.(query.data) ? empty : children(query.data)}
    </>
  );
}

type DataOf<Queries extends readonly ShownQuery<unknown>[]> = { [Index in keyof Queries]: NonNullable<Queries[Index]["data"]> };

/**
 * Several queries shown as one: loading while any first loads, failed with the first failure, and
 * their data side by side once every one has some.
 */
export function together<const Queries extends readonly ShownQuery<unknown>[]>(...queries: Queries): ShownQuery<DataOf<Queries>> {
  const complete = queries.every((query) => query.data !== undefined);
  return {
    isPending: queries.some((query) => query.isPending),
    error: queries.find((query) => query.error !== null)?.error ?? null,
    data: complete ? (queries.map((query) => query.data) as DataOf<Queries>) : undefined,
  };
}
