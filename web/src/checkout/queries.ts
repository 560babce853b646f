import { queryOptions } from "@tanstack/react-query";
import { request } from "../api/client";
import { checkoutPath, type PublicCheckout } from "./api";

export const checkoutKeys = {
  all: ["checkout"] as const,
  bySecret: (clientSecret: string) => [...checkoutKeys.all, clientSecret] as const,
};

/** The checkout's query: the screen reads it, and the discount code and the payment write their answers into it. */
export const checkoutQuery = (clientSecret: string) => queryOptions({ queryKey: checkoutKeys.bySecret(clientSecret), queryFn: () => request<PublicCheckout>(checkoutPath(clientSecret)) });
