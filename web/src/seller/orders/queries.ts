import { queryOptions } from "@tanstack/react-query";
import { useChange } from "../../api/mutations";
import { customerKeys } from "../customers/queries";
import { createRefund, getOrder, listCreditNotes, listDisputes, listPayments, listRefunds, type Order, type OrderFilters } from "./api";

/** Every orders query sits under `all`, an order's refunds, payments and disputes too, so a refund refreshes the lists and the order it belongs to. */
export const orderKeys = {
  all: ["orders"] as const,
  list: (organizationId: string, filters: OrderFilters) => [...orderKeys.all, "list", organizationId, filters] as const,
  detail: (id: string) => [...orderKeys.all, "detail", id] as const,
  refunds: (orderId: string) => [...orderKeys.all, "refunds", orderId] as const,
  payments: (orderId: string) => [...orderKeys.all, "payments", orderId] as const,
  disputes: (orderId: string) => [...orderKeys.all, "disputes", orderId] as const,
  creditNotes: (orderId: string) => [...orderKeys.all, "credit-notes", orderId] as const,
};

export const orderQuery = (id: string) => queryOptions({ queryKey: orderKeys.detail(id), queryFn: () => getOrder(id) });
export const refundsQuery = (orderId: string) => queryOptions({ queryKey: orderKeys.refunds(orderId), queryFn: () => listRefunds(orderId) });
export const paymentsQuery = (order: Pick<Order, "id" | "checkout_id">) => queryOptions({ queryKey: orderKeys.payments(order.id), queryFn: () => listPayments(order) });
export const creditNotesQuery = (orderId: string) => queryOptions({ queryKey: orderKeys.creditNotes(orderId), queryFn: () => listCreditNotes(orderId) });
export const disputesQuery = (orderId: string) => queryOptions({ queryKey: orderKeys.disputes(orderId), queryFn: () => listDisputes(orderId) });

/** A refund changes the order, its refunds and what its customer has spent. */
export const useCreateRefund = () => useChange(createRefund, () => [orderKeys.all, customerKeys.all]);
