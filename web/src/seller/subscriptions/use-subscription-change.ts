import { useQueryClient } from "@tanstack/react-query";
import type { Subscription } from "./subscriptions-api";

/** A change to a subscription that refreshes its screen with the server's answer and every list it appears in. */
export function useSubscriptionChange(id: string) {
  const queryClient = useQueryClient();
  return async (change: () => Promise<Subscription>) => {
    try {
      const changed = await change();
      queryClient.setQueryData(["subscription", id], changed);
      return changed;
    } finally {
      await queryClient.invalidateQueries({ queryKey: ["subscriptions"] });
    }
  };
}
