import { useFieldArray, type UseFormReturn } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { newSeatTier, SEAT_TIER_TYPES, type ProductForm } from "./form";
import { Button, Field } from "../../ui/components";

const messages = defineMessages({
  tierType: { id: "seller.productForm.seatTierType", defaultMessage: "How tiers apply" },
  volume: { id: "seller.productForm.seatTierType.volume", defaultMessage: "Volume: every seat at the price of the tier the count reaches" },
  graduated: { id: "seller.productForm.seatTierType.graduated", defaultMessage: "Graduated: each range of seats at its own tier's price" },
  minSeats: { id: "seller.productForm.minSeats", defaultMessage: "Fewest seats" },
  tiers: { id: "seller.productForm.seatTiers", defaultMessage: "Seat tiers" },
  tier: defineMessage<{ number: number; from: number }>({ id: "seller.productForm.seatTier", defaultMessage: "Tier {number}, from {from, plural, one {# seat} other {# seats}}" }),
  upTo: { id: "seller.productForm.seatTierUpTo", defaultMessage: "Up to (seats)" },
  noLimit: { id: "seller.productForm.seatTierNoLimit", defaultMessage: "Leave empty for no limit." },
  perSeat: { id: "seller.productForm.pricePerSeat", defaultMessage: "Price per seat" },
  add: { id: "seller.productForm.addSeatTier", defaultMessage: "Add a tier" },
  remove: defineMessage<{ number: number }>({ id: "seller.productForm.removeSeatTier", defaultMessage: "Remove tier {number}" }),
});

/**
 * A per-seat price's tiers, as Polar takes them: each tier starts where the one before it ends (the
 * first at the fewest seats), so only its end and price per seat are typed; the last may have no end.
 */
export function SeatTierFields({ form, index }: { form: UseFormReturn<ProductForm>; index: number }) {
  const { formatMessage } = useIntl();
  const tiers = useFieldArray({ control: form.control, name: `prices.${index}.tiers` });
  const row = form.watch(`prices.${index}`);
  const errors = form.formState.errors.prices?.[index];
  const startOf = (position: number) => (position === 0 ? Number(row.minSeats) || 1 : (Number(row.tiers[position - 1]?.upTo) || 0) + 1);
  return (
    <>
      <div className="field-row">
        <Field label={formatMessage(messages.tierType)} error={errors?.tierType?.message}>
          {(ids) => (
            <select {...ids} {...form.register(`prices.${index}.tierType`)}>
              {SEAT_TIER_TYPES.map((type) => (
                <option key={type} value={type}>
                  {formatMessage(messages[type])}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={formatMessage(messages.minSeats)} error={errors?.minSeats?.message}>
          {(ids) => <input {...ids} {...form.register(`prices.${index}.minSeats`)} inputMode="numeric" autoComplete="off" />}
        </Field>
      </div>
      <fieldset className="plain">
        <legend>{formatMessage(messages.tiers)}</legend>
        {tiers.fields.map((field, position) => {
          const number = position + 1;
          const last = position === tiers.fields.length - 1;
          const error = errors?.tiers?.[position];
          return (
            <fieldset key={field.id} className="price-box">
              <legend>{formatMessage(messages.tier, { number, from: startOf(position) })}</legend>
              <div className="field-row">
                <Field label={formatMessage(messages.upTo)} hint={last ? formatMessage(messages.noLimit) : undefined} error={error?.upTo?.message}>
                  {(ids) => <input {...ids} {...form.register(`prices.${index}.tiers.${position}.upTo`)} inputMode="numeric" autoComplete="off" />}
                </Field>
                <Field label={formatMessage(messages.perSeat)} error={error?.amount?.message}>
                  {(ids) => <input {...ids} {...form.register(`prices.${index}.tiers.${position}.amount`)} inputMode="decimal" autoComplete="off" />}
                </Field>
              </div>
              {tiers.fields.length > 1 && (
                <Button variant="ghost" onClick={() => tiers.remove(position)}>
                  {formatMessage(messages.remove, { number })}
                </Button>
              )}
            </fieldset>
          );
        })}
        <Button variant="secondary" onClick={() => tiers.append(newSeatTier())}>
          {formatMessage(messages.add)}
        </Button>
      </fieldset>
    </>
  );
}
