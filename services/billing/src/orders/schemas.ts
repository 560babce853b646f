import { z } from "zod";
import { isoTimestamp, listResource, momentInput, paging, repeated, sorting, timeZoneName } from "@tollgate/kit";
import { customerFilter, saleListFilters } from "../http/list-filters.js";
import { metadataInput, metadataOutput, metadataQuery } from "../http/metadata.js";
import { priceAmount } from "../products/prices.js";
import { CustomFieldData } from "../custom-fields/schemas.js";
import { Customer } from "../customers/schemas.js";
import { Address } from "../http/address.js";
import { Discount } from "../discounts/schemas.js";
import { productFields } from "../products/schemas.js";
import { OrderSubscription } from "../subscriptions/schemas.js";
import { ORDER_EXPORT_COLUMNS } from "./export.js";
import { ORDER_SORTABLE, ORDER_STATUSES } from "./orders.sql.js";

// The statuses an order passes through, which a list may be narrowed to.
export { ORDER_STATUSES } from "./orders.sql.js";

const OrderItemSchema = z
  .strictObject({
    id: z.string(),
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    label: z.string(),
    amount: z.int(),
    tax_amount: z.int(),
    proration: z.boolean(),
    product_price_id: z.string().nullable(),
    // The period a line covers is not kept per line.
    start_timestamp: z.null(),
    end_timestamp: z.null(),
  })
  .meta({ id: "OrderItemSchema" });

export const Order = z
  .strictObject({
    id: z.string(),
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    status: z.enum(ORDER_STATUSES),
    paid: z.boolean(),
    subtotal_amount: z.int(),
    discount_amount: z.int(),
    net_amount: z.int(),
    tax_amount: z.int(),
    total_amount: z.int(),
    applied_balance_amount: z.int(),
    due_amount: z.int(),
    refunded_amount: z.int(),
    refunded_tax_amount: z.int(),
    currency: z.string(),
    billing_reason: z.enum(["purchase", "subscription_create", "subscription_cycle", "subscription_update"]),
    billing_name: z.string().nullable(),
    billing_address: Address.nullable(),
    invoice_number: z.string().nullable(),
    is_invoice_generated: z.boolean(),
    receipt_number: z.string().nullable(),
    units: z.null(),
    seats: z.int().nullable().meta({ description: "The seats bought of a seat-based price; null for any other" }),
    refundable_amount: z.int(),
    refundable_tax_amount: z.int(),
    customer_id: z.string(),
    product_id: z.string().nullable(),
    discount_id: z.string().nullable(),
    subscription_id: z.string().nullable(),
    checkout_id: z.string().nullable(),
    metadata: metadataOutput,
    custom_field_data: CustomFieldData,
    platform_fee_amount: z.int(),
    // Self-hosted: no platform takes a cut.
    platform_fee_currency: z.null(),
    customer: Customer,
    product: z.strictObject(productFields).meta({ id: "OrderProduct" }).nullable(),
    discount: Discount.nullable(),
    subscription: OrderSubscription.nullable(),
    items: z.array(OrderItemSchema),
    description: z.string(),
  })
  .meta({ id: "Order" });

export const OrderList = listResource(Order, "ListResource_Order_");

/** The properties a list of orders may be sorted by. */
export const ORDER_SORT_KEYS = Object.keys(ORDER_SORTABLE) as (keyof typeof ORDER_SORTABLE)[];

/** Polar's `created_after` and `created_before`: a moment, with its offset. */
const createdBound = momentInput().optional();

/** Polar's order export: which orders (the seller's, one product's, some statuses, a time span), which columns, dates in which zone. */
export const orderExportQuery = (timeZones: ReadonlySet<string>) =>
  z.object({
    organization_id: repeated(z.string()),
    product_id: repeated(z.string()),
    status: repeated(z.enum(ORDER_STATUSES)),
    created_after: createdBound,
    created_before: createdBound,
    timezone: timeZoneName(timeZones).default("UTC"),
    columns: repeated(z.enum(ORDER_EXPORT_COLUMNS)),
  });

export const OrderListQuery = z.object({
  metadata: metadataQuery,
  ...paging,
  ...saleListFilters,
  checkout_id: repeated(z.string()),
  discount_id: repeated(z.string()),
  subscription_id: repeated(z.string()),
  external_customer_id: customerFilter.external_customer_id,
  product_billing_type: repeated(z.enum(["one_time", "recurring"])),
  status: repeated(z.enum(ORDER_STATUSES)),
  created_after: createdBound,
  created_before: createdBound,
  sorting: sorting(ORDER_SORT_KEYS, "-created_at"),
});

/**
 * Polar's OrderCreate: a draft for an off-session charge of one of the seller's one-time products to
 * one of its customers, at the product's price or an amount the seller sets, under a line label of its
 * own. No price here is unit-based, so `units` is refused where the product is checked.
 */
export const OrderCreate = z
  .strictObject({
    organization_id: z.string().nullish(),
    customer_id: z.string(),
    product_id: z.string(),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/, { error: "A three-letter ISO currency code such as usd" })
      .transform((code) => code.toLowerCase())
      .nullish(),
    amount: priceAmount.nullish(),
    units: z.int().min(1).nullish(),
    // Blank is no label, as Polar strips it before its length is checked.
    description: z
      .string()
      .transform((text) => text.trim() || null)
      .pipe(z.string().max(500).nullable())
      .nullish(),
    metadata: metadataInput.default({}),
    custom_field_data: CustomFieldData.default({}),
  })
  .meta({ id: "OrderCreate" });

/** Polar's OrderFinalize: the customer's card to charge, else their default one. */
export const OrderFinalize = z.strictObject({ payment_method_id: z.string().nullish() }).meta({ id: "OrderFinalize" });
