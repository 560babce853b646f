import { z } from "zod";
import { isoTimestamp, listResource, momentInput, paging, pgInteger, queryFlag, repeated, sorting, timeZoneName } from "@tollgate/kit";
import { customerFilter, saleListFilters } from "../http/list-filters.js";
import { metadataInput, metadataOutput, metadataQuery } from "../http/metadata.js";
import { CustomFieldData } from "../custom-fields/schemas.js";
import { Customer } from "../customers/schemas.js";
import { Discount } from "../discounts/schemas.js";
import { Meter } from "../meters/schemas.js";
import { Interval, Product, ProductPrice } from "../products/schemas.js";
import { SUBSCRIPTION_EXPORT_COLUMNS } from "./export.js";
import { CANCELLATION_REASONS, SUBSCRIPTION_SORTABLE } from "./subscriptions.sql.js";

const SubscriptionStatus = z.enum(["incomplete", "incomplete_expired", "trialing", "active", "past_due", "canceled", "unpaid", "paused"]);

/** A subscription's standing on a meter its metered prices bill, this period. */
const subscriptionMeterFields = {
  created_at: isoTimestamp(),
  modified_at: isoTimestamp().nullable(),
  id: z.string(),
  consumed_units: z.number(),
  credited_units: z.int(),
  amount: z.int(),
  meter_id: z.string(),
};
export const SubscriptionMeter = z.strictObject({ ...subscriptionMeterFields, meter: Meter }).meta({ id: "SubscriptionMeter" });
export const CustomerStateSubscriptionMeter = z.strictObject(subscriptionMeterFields).meta({ id: "CustomerStateSubscriptionMeter" });

const subscriptionFields = {
  id: z.string(),
  created_at: isoTimestamp(),
  modified_at: isoTimestamp().nullable(),
  amount: z.int(),
  currency: z.string(),
  recurring_interval: Interval,
  recurring_interval_count: z.int(),
  status: SubscriptionStatus,
  current_period_start: isoTimestamp(),
  current_period_end: isoTimestamp(),
  current_meter_period_start: isoTimestamp().nullable(),
  current_meter_period_end: isoTimestamp().nullable(),
  units: z.int().nullable(),
  seats: z.int().nullable().meta({ description: "The seats paid for, of a seat-based price; null for any other" }),
  trial_start: isoTimestamp().nullable(),
  trial_end: isoTimestamp().nullable(),
  cancel_at_period_end: z.boolean(),
  pause_at_period_end: z.boolean(),
  paused_at: isoTimestamp().nullable(),
  resumes_at: isoTimestamp().nullable(),
  canceled_at: isoTimestamp().nullable(),
  started_at: isoTimestamp().nullable(),
  ends_at: isoTimestamp().nullable(),
  ended_at: isoTimestamp().nullable(),
  customer_id: z.string(),
  product_id: z.string(),
  discount_id: z.string().nullable(),
  checkout_id: z.string().nullable(),
  customer_cancellation_reason: z.enum(CANCELLATION_REASONS).nullable(),
  customer_cancellation_comment: z.string().nullable(),
  metadata: metadataOutput,
};

/** A subscription's own fields, without customer, product or prices: what an order shows of it. */
export const OrderSubscription = z.strictObject(subscriptionFields).meta({ id: "OrderSubscription" });

export const Subscription = z
  .strictObject({
    ...subscriptionFields,
    custom_field_data: CustomFieldData,
    customer: Customer,
    product: Product,
    discount: Discount.nullable(),
    prices: z.array(ProductPrice),
    meters: z.array(SubscriptionMeter),
    // Changes that wait for the next period (seats, a plan change at renewal) are not offered yet.
    pending_update: z.null(),
  })
  .meta({ id: "Subscription" });

export const SubscriptionList = listResource(Subscription, "ListResource_Subscription_");

/** A live subscription, as its customer's state lists it. */
export const CustomerStateSubscription = OrderSubscription.omit({
  recurring_interval_count: true,
  current_meter_period_start: true,
  current_meter_period_end: true,
  // A paused subscription is not in the state: what it would say of a pause is always "none".
  pause_at_period_end: true,
  paused_at: true,
  resumes_at: true,
  ended_at: true,
  customer_id: true,
  checkout_id: true,
  customer_cancellation_reason: true,
  customer_cancellation_comment: true,
})
  .extend({ custom_field_data: CustomFieldData, status: z.enum(["active", "trialing"]), meters: z.array(CustomerStateSubscriptionMeter) })
  .meta({ id: "CustomerStateSubscription" });

/** A bound on a moment a list is filtered by (`started_after`…): a moment, with its offset. */
const momentBound = momentInput().optional();

/** Polar's subscription export: which subscriptions, which columns, dates in which zone. */
export const subscriptionExportQuery = (timeZones: ReadonlySet<string>) =>
  z.object({
    organization_id: repeated(z.string()),
    product_id: repeated(z.string()),
    status: repeated(SubscriptionStatus),
    cancel_at_period_end: queryFlag().optional(),
    started_after: momentBound,
    started_before: momentBound,
    timezone: timeZoneName(timeZones).default("UTC"),
    columns: repeated(z.enum(SUBSCRIPTION_EXPORT_COLUMNS)),
  });

export const SubscriptionListQuery = z.object({
  ...paging,
  ...saleListFilters,
  external_customer_id: customerFilter.external_customer_id,
  discount_id: repeated(z.string()),
  status: repeated(SubscriptionStatus),
  active: queryFlag().optional(),
  cancel_at_period_end: queryFlag().optional(),
  customer_cancellation_reason: repeated(z.enum(CANCELLATION_REASONS)),
  started_after: momentBound,
  started_before: momentBound,
  canceled_at_after: momentBound,
  canceled_at_before: momentBound,
  metadata: metadataQuery,
  sorting: sorting(Object.keys(SUBSCRIPTION_SORTABLE) as (keyof typeof SUBSCRIPTION_SORTABLE)[], "-started_at"),
});

const moment = momentInput();

/** Polar's SubscriptionUpdate: one kind of change per call, told apart by its fields. */
/** A free plan started for a customer, named by id or by the seller's external id (Polar's SubscriptionCreate). */
export const SubscriptionCreate = z
  .union([
    z.strictObject({ product_id: z.string(), customer_id: z.string(), metadata: metadataInput.default({}) }).meta({ id: "SubscriptionCreateCustomer" }),
    z.strictObject({ product_id: z.string(), external_customer_id: z.string(), metadata: metadataInput.default({}) }).meta({ id: "SubscriptionCreateExternalCustomer" }),
  ])
  .meta({ id: "SubscriptionCreate" });

export const SubscriptionUpdateBody = z.object({
  customer_cancellation_reason: z.enum(CANCELLATION_REASONS).nullish(),
  customer_cancellation_comment: z.string().max(1_000).nullish(),
  cancel_at_period_end: z.boolean().optional(),
  revoke: z.literal(true).optional(),
  pause_at_period_end: z.boolean().optional(),
  resumes_at: moment.nullish(),
  resume: z.literal(true).optional(),
  product_id: z.string().optional(),
  proration_behavior: z.enum(["invoice", "prorate", "next_period", "reset"]).nullish(),
  discount_id: z.string().nullish(),
  trial_end: z.union([z.literal("now"), moment]).optional(),
  current_billing_period_end: moment.optional(),
  seats: pgInteger().min(1).optional(),
});
export type SubscriptionUpdate = z.output<typeof SubscriptionUpdateBody>;
