import { QueryClient } from "@tanstack/react-query";
import { ApiFailure, isRetryable } from "./client";

// The API client already retries reads; queries retry once more only for failures worth it.
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: (count, error) => count < 1 && error instanceof ApiFailure && isRetryable(error.failure.status), staleTime: 10_000 },
  },
});
