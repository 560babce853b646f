import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { defineMessages, useIntl } from "react-intl";
import { Field, Page } from "../../ui/components";
import { DateInput } from "../../ui/date-input";
import { Filters } from "../../ui/filters";
import { productChoices } from "../products/queries";
import { ChoiceFilter } from "../console-screens";
import { useSeller } from "../space";
import { customerChoices } from "../customers/queries";
import { BILLING_TYPES, ORDER_STATUSES, type BillingType, type OrderFilters, type OrderStatus } from "./api";
import { billingTypeMessages, statusMessages } from "./labels";
import { OrdersTable } from "./orders-table";

const messages = defineMessages({
  title: { id: "seller.orders.title", defaultMessage: "Orders" },
  description: { id: "seller.orders.description", defaultMessage: "Every payment: purchases, new subscriptions and renewals." },
  filters: { id: "seller.orders.filters", defaultMessage: "Filter orders" },
  status: { id: "seller.orders.filter.status", defaultMessage: "Status" },
  billingType: { id: "seller.orders.filter.billingType", defaultMessage: "Kind" },
  product: { id: "seller.orders.filter.product", defaultMessage: "Product" },
  customer: { id: "seller.orders.filter.customer", defaultMessage: "Customer" },
  from: { id: "seller.orders.filter.from", defaultMessage: "From" },
  to: { id: "seller.orders.filter.to", defaultMessage: "To" },
  any: { id: "seller.orders.filter.any", defaultMessage: "All" },
});

/** The seller's orders, narrowed by status, kind, product, customer and dates as Polar's order list allows. */
export function OrdersScreen() {
  const { formatMessage } = useIntl();
  const seller = useSeller();
  const [filters, setFilters] = useState<OrderFilters>({});
  const products = useQuery(productChoices(seller.id, "name"));
  const customers = useQuery(customerChoices(seller.id));
  const filter = (changes: OrderFilters) => setFilters((current) => ({ ...current, ...changes }));
  const any = <option value="">{formatMessage(messages.any)}</option>;
  return (
    <Page title={formatMessage(messages.title)} description={formatMessage(messages.description)}>
      <Filters active={Object.values(filters).filter((value) => value !== undefined).length} role="group" label={formatMessage(messages.filters)}>
        <Field label={formatMessage(messages.status)}>
          {(ids) => (
            <select {...ids} value={filters.status ?? ""} onChange={(event) => filter({ status: (event.target.value || undefined) as OrderStatus | undefined })}>
              {any}
              {ORDER_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {formatMessage(statusMessages[status])}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={formatMessage(messages.billingType)}>
          {(ids) => (
            <select {...ids} value={filters.billingType ?? ""} onChange={(event) => filter({ billingType: (event.target.value || undefined) as BillingType | undefined })}>
              {any}
              {BILLING_TYPES.map((type) => (
                <option key={type} value={type}>
                  {formatMessage(billingTypeMessages[type])}
                </option>
              ))}
            </select>
          )}
        </Field>
        <ChoiceFilter
          label={formatMessage(messages.product)}
          anyLabel={formatMessage(messages.any)}
          choices={(products.data?.items ?? []).map((product) => ({ value: product.id, label: product.name }))}
          value={filters.productId ?? ""}
          onChange={(productId) => filter({ productId: productId || undefined })}
        />
        <ChoiceFilter
          label={formatMessage(messages.customer)}
          anyLabel={formatMessage(messages.any)}
          choices={(customers.data?.items ?? []).map((customer) => ({ value: customer.id, label: customer.email }))}
          value={filters.customerId ?? ""}
          onChange={(customerId) => filter({ customerId: customerId || undefined })}
        />
        <Field label={formatMessage(messages.from)}>{(ids) => <DateInput ids={ids} value={filters.from ?? ""} max={filters.to} onChange={(from) => filter({ from: from || undefined })} />}</Field>
        <Field label={formatMessage(messages.to)}>{(ids) => <DateInput ids={ids} value={filters.to ?? ""} min={filters.from} onChange={(to) => filter({ to: to || undefined })} />}</Field>
      </Filters>
      <OrdersTable filters={filters} />
    </Page>
  );
}
