import { defineMessage } from "react-intl";
import type { Subscription } from "../api/wire";

/** Polar's reasons a customer gives for cancelling, in the order the portal offers them. */
export const CANCELLATION_REASONS = ["too_expensive", "missing_features", "switched_service", "unused", "customer_service", "low_quality", "too_complex", "other"] as const satisfies readonly NonNullable<Subscription["customer_cancellation_reason"]>[];
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

/** A cancellation reason in words, as the customer chose it and as the seller reads it. */
export const cancellationReason = defineMessage<{ reason: CancellationReason }>({
  id: "subscription.cancellationReason",
  defaultMessage:
    "{reason, select, too_expensive {It's too expensive} missing_features {Features I need are missing} switched_service {I switched to another service} unused {I don't use it enough} customer_service {Customer service was not good enough} low_quality {The quality was not good enough} too_complex {It's too complicated to use} other {Another reason}}",
});
