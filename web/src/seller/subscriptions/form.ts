import { defineMessages } from "react-intl";
import * as z from "zod/mini";
import { required } from "../../forms/schemas";
import { seatCount, type SeatBounds } from "../../forms/team";

const messages = defineMessages({
  product: { id: "forms.planChange.product", defaultMessage: "Choose the product to move to" },
});

/** A subscription moved to another product: which, and how the rest of the period is billed (Polar's proration behaviours that billing takes). */
export const planChangeForm = z.object({ productId: required(messages.product), prorationBehavior: z.enum(["invoice", "prorate"]) });
export type PlanChangeForm = z.infer<typeof planChangeForm>;

/** A discount applied to a subscription's next renewals; empty for none. */
export const subscriptionDiscountForm = z.object({ discountId: z.string() });
export type SubscriptionDiscountForm = z.infer<typeof subscriptionDiscountForm>;

/** A seat-based subscription's new seat count, within its price's bounds, and how the rest of the period is billed. */
export const seatChangeForm = (bounds: SeatBounds) => z.object({ seats: seatCount(bounds), prorationBehavior: z.enum(["invoice", "prorate"]) });
export type SeatChangeForm = z.input<ReturnType<typeof seatChangeForm>>;

const trialMessages = defineMessages({
  date: { id: "forms.trialEnd.date", defaultMessage: "Choose the day the trial ends" },
});

/** A trial moved to end on another day (`yyyy-mm-dd`, as a date field gives it); the server checks it is in the future. */
export const trialEndForm = z.object({ date: required(trialMessages.date) });
export type TrialEndForm = z.infer<typeof trialEndForm>;
