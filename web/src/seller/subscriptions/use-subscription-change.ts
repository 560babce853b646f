import { useQueryClient } from "@tanstack/react-query";
import type { ApiResult } from "../../api/client";
import type { Subscription } from "./subscriptions-api";

/** A change to a subscription that refreshes its screen with the server's answer and every list it appears in. */
export function useSubscriptionChange(id: string) {
  const queryClient = useQueryClient();
  return async (change: () => Promise<ApiResult<Subscription>>) => {
    const result = await change();
    if (result.data) queryClient.setQueryData(["subscription", id], result);
    await queryClient.invalidateQueries({ queryKey: ["subscriptions"] });
    return result;
  };
}
