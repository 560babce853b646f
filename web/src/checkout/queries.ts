import { queryOptions } from "@tanstack/react-query";
import { request } from "../api/client";
import { useChange } from "../api/mutations";
import type { RequestBody } from "../api/wire";
import { checkoutPath, type PublicCheckout } from "./api";

export const checkoutKeys = {
  all: ["checkout"] as const,
  bySecret: (clientSecret: string) => [...checkoutKeys.all, clientSecret] as const,
};

/** The checkout's query: the screen reads it, and the discount code and the payment write their answers into it. */
export const checkoutQuery = (clientSecret: string) => queryOptions({ queryKey: checkoutKeys.bySecret(clientSecret), queryFn: () => request<PublicCheckout>(checkoutPath(clientSecret)) });

/** The buyer's change to the checkout (Polar's client update): another product or price, read back with its new amounts. */
export const useCheckoutChange = (clientSecret: string) =>
  useChange(
    (body: RequestBody<"/v1/checkouts/client/{client_secret}", "patch">) => request<PublicCheckout>(checkoutPath(clientSecret), { method: "PATCH", body }),
    () => [checkoutKeys.bySecret(clientSecret)],
  );
