import { request, type Listing } from "../../api/client";
import type { SetAsideWork } from "../../api/wire";

/** Background work that kept failing and was set aside, so everything else went on (the services' SetAsideWork). */
export type { SetAsideWork } from "../../api/wire";

/** Each service lists the work it set aside: billing's workers, and the webhook dispatcher's deliveries. */
export const SET_ASIDE_SOURCES = ["/v1/set-aside-work", "/v1/webhooks/set-aside-work"] as const;
export type SetAsideSource = (typeof SET_ASIDE_SOURCES)[number];

/** Enough for a seller to see all of it: work is set aside rarely, and each item is dealt with one by one. */
const SHOWN = 100;

export const listSetAside = (source: SetAsideSource, organizationId: string) => request<Listing<SetAsideWork>>(`${source}/?organization_id=${encodeURIComponent(organizationId)}&limit=${SHOWN}`);

export const retrySetAside = (source: SetAsideSource, id: string) => request<object>(`${source}/${encodeURIComponent(id)}/retry`, { method: "POST" });

/** An item with the service that set it aside, which is where it is sent back to work. */
export type SetAsideItem = SetAsideWork & { source: SetAsideSource };
