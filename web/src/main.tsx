import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { ApiFailure } from "./api/auth-client";
import { isRetryable } from "./api/client";
import { LocaleProvider } from "./i18n/provider";
import { router } from "./router";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

// The API client already retries reads; queries retry once more only for failures worth it.
const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: (count, error) => count < 1 && error instanceof ApiFailure && isRetryable(error.failure.status), staleTime: 10_000 },
  },
});

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <LocaleProvider>
        <RouterProvider router={router} />
      </LocaleProvider>
    </QueryClientProvider>
  </StrictMode>,
);
