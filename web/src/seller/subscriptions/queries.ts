import { queryOptions, useQueryClient } from "@tanstack/react-query";
import { customerKeys } from "../customers/queries";
import { getSubscription, type Subscription, type SubscriptionQuery } from "./subscriptions-api";

export const subscriptionKeys = {
  all: ["subscriptions"] as const,
  lists: () => [...subscriptionKeys.all, "list"] as const,
  list: (filters: Omit<SubscriptionQuery, "sorting" | "page" | "limit">) => [...subscriptionKeys.lists(), filters] as const,
  detail: (id: string) => [...subscriptionKeys.all, "detail", id] as const,
};

export const subscriptionQuery = (id: string) => queryOptions({ queryKey: subscriptionKeys.detail(id), queryFn: () => getSubscription(id) });

/** A change to a subscription that refreshes its screen with the server's answer, every list it appears in, and its customer's seats. */
export function useSubscriptionChange(id: string) {
  const queryClient = useQueryClient();
  return async (change: () => Promise<Subscription>) => {
    try {
      const changed = await change();
      queryClient.setQueryData(subscriptionKeys.detail(id), changed);
      return changed;
    } finally {
      await Promise.all([queryClient.invalidateQueries({ queryKey: subscriptionKeys.lists() }), queryClient.invalidateQueries({ queryKey: customerKeys.all })]);
    }
  };
}
