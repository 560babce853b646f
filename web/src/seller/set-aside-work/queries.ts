import { useQueries } from "@tanstack/react-query";
import { useChange } from "../../api/mutations";
import type { ShownQuery } from "../../ui/query-state";
import { listSetAside, retrySetAside, SET_ASIDE_SOURCES, type SetAsideItem, type SetAsideSource } from "./set-aside-work-api";

/** What is set aside, and how many in all (more than listed when a service has more than a page). */
export interface SetAside {
  items: SetAsideItem[];
  total: number;
}

export const setAsideKeys = {
  all: ["set-aside-work"] as const,
  seller: (sellerId: string) => [...setAsideKeys.all, sellerId] as const,
  source: (sellerId: string, source: SetAsideSource) => [...setAsideKeys.seller(sellerId), source] as const,
};

/**
 * The seller's set-aside work from every service, newest first, with how many there are, read as one
 * query for QueryState: loading while any service's list is, failed with the first failure, and
 * holding what the services that answered listed.
 */
export function useSetAsideWork(sellerId: string, options: { refetchInterval?: number } = {}) {
  return useQueries({
    queries: SET_ASIDE_SOURCES.map((source) => ({
      queryKey: setAsideKeys.source(sellerId, source),
      queryFn: () => listSetAside(source, sellerId),
      refetchInterval: options.refetchInterval,
    })),
    combine: (results): ShownQuery<SetAside> & { isFetching: boolean } => {
      const items: SetAsideItem[] = results.flatMap((result, index) => (result.data?.items ?? []).map((item) => ({ ...item, source: SET_ASIDE_SOURCES[index] ?? SET_ASIDE_SOURCES[0] })));
      items.sort((a, b) => (a.set_aside_at < b.set_aside_at ? 1 : -1));
      const total = results.reduce((sum, result) => sum + (result.data?.pagination.total_count ?? 0), 0);
      const error = results.find((result) => result.error !== null)?.error ?? null;
      const isPending = results.some((result) => result.isPending);
      return { data: isPending ? undefined : { items, total }, error, isPending, isFetching: results.some((result) => result.isFetching) };
    },
  });
}

/** Sending an item back to work: refused or not, the list shows what is still set aside. */
export const useRetrySetAside = (sellerId: string) => useChange(({ source, id }: { source: SetAsideSource; id: string }) => retrySetAside(source, id), () => [setAsideKeys.seller(sellerId)], { evenIfRefused: true });
