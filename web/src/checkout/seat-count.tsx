import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { defineMessage, useIntl } from "react-intl";
import { describeError, request } from "../api/client";
import type { RequestBody } from "../api/wire";
import { Field } from "../ui/components";
import { checkoutPath, type PublicCheckout } from "./api";
import { checkoutQuery } from "./queries";

const messages = {
  seats: defineMessage({ id: "checkout.seats", defaultMessage: "Seats" }),
  fixed: defineMessage<{ count: number }>({ id: "checkout.seats.fixed", defaultMessage: "{count, plural, one {# seat} other {# seats}}" }),
  between: defineMessage<{ min: number; max: number }>({ id: "checkout.seats.between", defaultMessage: "Between {min} and {max} seats" }),
  atLeast: defineMessage<{ min: number }>({ id: "checkout.seats.atLeast", defaultMessage: "At least {min, plural, one {# seat} other {# seats}}" }),
};

/** The seats the buyer may choose between: the price's tiers, narrowed by the seller's bounds on the checkout. */
export function seatBounds(checkout: PublicCheckout): { min: number; max: number | null } | null {
  const price = checkout.product_price;
  if (checkout.seats === null || price.amount_type !== "seat_based") return null;
  const tierMax = price.seat_tiers.maximum_seats;
  const max = checkout.max_seats === null ? tierMax : Math.min(checkout.max_seats, tierMax ?? checkout.max_seats);
  return { min: Math.max(price.seat_tiers.minimum_seats, checkout.min_seats ?? 1), max };
}

/**
 * How many seats a seat-based checkout sells, as a number field within its bounds (a fixed count,
 * when the seller set one, is only shown): each valid count is sent to the checkout (Polar's client
 * update with `seats`), whose new amounts the summary shows at once. Answers to counts typed since
 * are left aside, so the last count typed is the one shown.
 */
export function SeatCount({ checkout, clientSecret }: { checkout: PublicCheckout; clientSecret: string }) {
  const { formatMessage } = useIntl();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState(String(checkout.seats ?? ""));
  const latest = useRef(checkout.seats);
  const change = useMutation({
    mutationFn: (seats: number) => request<PublicCheckout>(checkoutPath(clientSecret), { method: "PATCH", body: { seats } satisfies RequestBody<"/v1/checkouts/client/{client_secret}", "patch"> }),
    onSuccess: (changed, seats) => {
      if (seats === latest.current) queryClient.setQueryData(checkoutQuery(clientSecret).queryKey, changed);
    },
  });
  const bounds = seatBounds(checkout);
  if (!bounds || checkout.seats === null) return null;
  if (bounds.min === bounds.max) return <p className="checkout-seats">{formatMessage(messages.fixed, { count: checkout.seats })}</p>;

  const hint = bounds.max === null ? formatMessage(messages.atLeast, { min: bounds.min }) : formatMessage(messages.between, { min: bounds.min, max: bounds.max });
  const count = Number(typed);
  const valid = typed.trim() !== "" && Number.isInteger(count) && count >= bounds.min && (bounds.max === null || count <= bounds.max);
  const choose = (value: string) => {
    setTyped(value);
    const seats = Number(value);
    if (value.trim() === "" || !Number.isInteger(seats) || seats < bounds.min || (bounds.max !== null && seats > bounds.max) || seats === latest.current) return;
    latest.current = seats;
    change.mutate(seats);
  };
  return (
    <div className="checkout-seats">
      <Field label={formatMessage(messages.seats)} hint={valid ? hint : undefined} error={!valid ? hint : change.error ? describeError(change.error.failure) : undefined}>
        {(ids) => <input {...ids} type="number" inputMode="numeric" min={bounds.min} max={bounds.max ?? undefined} step={1} value={typed} onChange={(event) => choose(event.target.value)} />}
      </Field>
    </div>
  );
}
