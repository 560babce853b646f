import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import type { ApiFailure } from "./client";

/**
 * A change the server makes, which refreshes the queries under `invalidates` once it succeeds (or,
 * with `evenIfRefused`, once it is answered at all: a refusal may mean the screen is out of date).
 * Each queries module names the keys its mutations touch, so no screen has to remember them. Its
 * `mutateAsync` resolves once they are refreshed, and rejects as the call does.
 */
export function useChange<Input, Output>(change: (input: Input) => Promise<Output>, invalidates: (input: Input) => QueryKey[], { evenIfRefused = false } = {}) {
  const queryClient = useQueryClient();
  const refresh = (input: Input) => Promise.all(invalidates(input).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  return useMutation<Output, ApiFailure, Input>({
    mutationFn: change,
    ...(evenIfRefused ? { onSettled: (_output, _failure, input) => refresh(input) } : { onSuccess: (_output, input) => refresh(input) }),
  });
}
