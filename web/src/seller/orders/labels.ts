import { defineMessages } from "react-intl";
import type { BillingReason, BillingType, OrderStatus, RefundReason } from "./api";

/** Polar's order statuses, billing reasons and refund reasons in words, for the order screens and the customer's. */
export const statusMessages = defineMessages<OrderStatus>({
  draft: { id: "seller.orders.status.draft", defaultMessage: "Draft" },
  pending: { id: "seller.orders.status.pending", defaultMessage: "Pending" },
  paid: { id: "seller.orders.status.paid", defaultMessage: "Paid" },
  refunded: { id: "seller.orders.status.refunded", defaultMessage: "Refunded" },
  partially_refunded: { id: "seller.orders.status.partiallyRefunded", defaultMessage: "Partially refunded" },
  void: { id: "seller.orders.status.void", defaultMessage: "Void" },
});

export const billingReasonMessages = defineMessages<BillingReason>({
  purchase: { id: "seller.orders.reason.purchase", defaultMessage: "One-time purchase" },
  subscription_create: { id: "seller.orders.reason.subscriptionCreate", defaultMessage: "New subscription" },
  subscription_cycle: { id: "seller.orders.reason.subscriptionCycle", defaultMessage: "Subscription renewal" },
  subscription_update: { id: "seller.orders.reason.subscriptionUpdate", defaultMessage: "Subscription change" },
});

export const billingTypeMessages = defineMessages<BillingType>({
  one_time: { id: "seller.orders.billingType.oneTime", defaultMessage: "One-time purchases" },
  recurring: { id: "seller.orders.billingType.recurring", defaultMessage: "Subscriptions" },
});

export const refundReasonMessages = defineMessages<RefundReason>({
  customer_request: { id: "seller.refund.reason.customerRequest", defaultMessage: "The customer asked" },
  duplicate: { id: "seller.refund.reason.duplicate", defaultMessage: "Paid twice" },
  fraudulent: { id: "seller.refund.reason.fraudulent", defaultMessage: "Fraud" },
  service_disruption: { id: "seller.refund.reason.serviceDisruption", defaultMessage: "Service disruption" },
  satisfaction_guarantee: { id: "seller.refund.reason.satisfactionGuarantee", defaultMessage: "Satisfaction guarantee" },
  dispute_prevention: { id: "seller.refund.reason.disputePrevention", defaultMessage: "To prevent a dispute" },
  other: { id: "seller.refund.reason.other", defaultMessage: "Other" },
});
