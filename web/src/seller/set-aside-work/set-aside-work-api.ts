import { useQueries } from "@tanstack/react-query";
import { request, type Listing } from "../../api/client";
import type { SetAsideWork } from "../../api/wire";

/** Background work that kept failing and was set aside, so everything else went on (the services' SetAsideWork). */
export type { SetAsideWork } from "../../api/wire";

/** Each service lists the work it set aside: billing's workers, and the webhook dispatcher's deliveries. */
export const SET_ASIDE_SOURCES = ["/v1/set-aside-work", "/v1/webhooks/set-aside-work"] as const;
export type SetAsideSource = (typeof SET_ASIDE_SOURCES)[number];

/** Enough for a seller to see all of it: work is set aside rarely, and each item is dealt with one by one. */
const SHOWN = 100;

export const setAsideKey = (sellerId: string) => ["set-aside-work", sellerId] as const;

const listSetAside = (source: SetAsideSource, organizationId: string) => request<Listing<SetAsideWork>>(`${source}/?organization_id=${encodeURIComponent(organizationId)}&limit=${SHOWN}`);

export const retrySetAside = (source: SetAsideSource, id: string) => request<object>(`${source}/${encodeURIComponent(id)}/retry`, { method: "POST" });

/** An item with the service that set it aside, which is where it is sent back to work. */
export type SetAsideItem = SetAsideWork & { source: SetAsideSource };

/** The seller's set-aside work from every service, newest first, with how many there are and the first failure to read them. */
export function useSetAsideWork(sellerId: string, options: { refetchInterval?: number } = {}) {
  return useQueries({
    queries: SET_ASIDE_SOURCES.map((source) => ({
      queryKey: [...setAsideKey(sellerId), source],
      queryFn: () => listSetAside(source, sellerId),
      refetchInterval: options.refetchInterval,
    })),
    combine: (results) => {
      const items: SetAsideItem[] = results.flatMap((result, index) => (result.data?.items ?? []).map((item) => ({ ...item, source: SET_ASIDE_SOURCES[index] ?? SET_ASIDE_SOURCES[0] })));
      items.sort((a, b) => (a.set_aside_at < b.set_aside_at ? 1 : -1));
      const total = results.reduce((sum, result) => sum + (result.data?.pagination.total_count ?? 0), 0);
      const error = results.find((result) => result.error !== null)?.error ?? null;
      return { items, total, error, isPending: results.some((result) => result.isPending), isFetching: results.some((result) => result.isFetching) };
    },
  });
}
