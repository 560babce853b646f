import { repeated } from "@tollgate/kit";
import { z } from "zod";

// The filters Polar's lists share, as query parameters each given once or repeated. A list's query
// spreads them, or names one alone where Polar puts another parameter between them: the published
// OpenAPI document lists a query's parameters in the order its schema declares them.

/** `organization_id`: which of the sellers the caller may read a list shows (all of them when absent). */
export const sellerFilter = { organization_id: repeated(z.string()) };

/** `customer_id` and `external_customer_id` (the seller's own id for a customer): whose rows a list shows. */
export const customerFilter = { customer_id: repeated(z.string()), external_customer_id: repeated(z.string()) };

/** Which seller, which customers: the filters of a list of customers' rows. */
export const customerListFilters = { ...sellerFilter, ...customerFilter };

/** Which seller, which product, which customer: the filters of a list of sales (checkouts, orders, subscriptions). */
export const saleListFilters = { ...sellerFilter, product_id: repeated(z.string()), customer_id: customerFilter.customer_id };
