import { useQuery } from "@tanstack/react-query";
import { useFieldArray, type UseFormReturn } from "react-hook-form";
import { defineMessage, defineMessages, useIntl } from "react-intl";
import { CURRENCIES } from "../../forms/money";
import { newPriceRow, PRICE_TYPES, type ProductForm } from "./form";
import { Button, Field } from "../../ui/components";
import { meterPicker } from "./queries";
import { SeatTierFields } from "./seat-tier-fields";

const messages = defineMessages({
  title: { id: "seller.productForm.prices", defaultMessage: "Prices" },
  hint: { id: "seller.productForm.pricesHint", defaultMessage: "One fixed, free, pay-what-you-want or per-seat price per currency; usage prices add to it." },
  price: defineMessage<{ number: number }>({ id: "seller.productForm.price", defaultMessage: "Price {number}" }),
  priceType: { id: "seller.productForm.priceType", defaultMessage: "Price type" },
  fixed: { id: "seller.productForm.priceType.fixed", defaultMessage: "Fixed price" },
  custom: { id: "seller.productForm.priceType.custom", defaultMessage: "Pay what you want" },
  free: { id: "seller.productForm.priceType.free", defaultMessage: "Free" },
  metered_unit: { id: "seller.productForm.priceType.metered", defaultMessage: "Per unit of usage" },
  seat_based: { id: "seller.productForm.priceType.seatBased", defaultMessage: "Per seat" },
  amount: { id: "seller.productForm.amount", defaultMessage: "Amount" },
  minimum: { id: "seller.productForm.minimum", defaultMessage: "Minimum amount" },
  minimumHint: { id: "seller.productForm.minimumHint", defaultMessage: "0 lets buyers pay nothing." },
  preset: { id: "seller.productForm.preset", defaultMessage: "Suggested amount" },
  unitAmount: { id: "seller.productForm.unitAmount", defaultMessage: "Price per unit" },
  meter: { id: "seller.productForm.meter", defaultMessage: "Meter" },
  chooseMeter: { id: "seller.productForm.chooseMeter", defaultMessage: "Choose a meter" },
  noMeters: { id: "seller.productForm.noMeters", defaultMessage: "No meters yet: usage prices need one." },
  cap: { id: "seller.productForm.cap", defaultMessage: "Cap per billing period" },
  optional: { id: "seller.productForm.optional", defaultMessage: "Optional." },
  currency: { id: "seller.productForm.currency", defaultMessage: "Currency" },
  add: { id: "seller.productForm.addPrice", defaultMessage: "Add a price" },
  remove: defineMessage<{ number: number }>({ id: "seller.productForm.removePrice", defaultMessage: "Remove price {number}" }),
});

/** The product's prices, one box each: any of Polar's amount types, in any of the currencies the console offers. */
export function PriceFields({ form, organizationId }: { form: UseFormReturn<ProductForm>; organizationId: string }) {
  const { formatMessage } = useIntl();
  const prices = useFieldArray({ control: form.control, name: "prices" });
  const rows = form.watch("prices");
  const metered = rows.some((row) => row.type === "metered_unit");
  const meters = useQuery({ ...meterPicker(organizationId), enabled: metered });
  const meterChoices = meters.data?.items ?? [];
  const errors = form.formState.errors.prices;
  return (
    <fieldset className="plain">
      <legend>
        <h2>{formatMessage(messages.title)}</h2>
      </legend>
      <p className="hint">{formatMessage(messages.hint)}</p>
      {prices.fields.map((field, index) => {
        const row = rows[index] ?? field;
        const error = errors?.[index];
        const number = index + 1;
        return (
          <fieldset key={field.id} className="price-box">
            <legend>{formatMessage(messages.price, { number })}</legend>
            <div className="field-row">
              <Field label={formatMessage(messages.priceType)} error={error?.type?.message}>
                {(ids) => (
                  <select {...ids} {...form.register(`prices.${index}.type`)}>
                    {PRICE_TYPES.map((type) => (
                      <option key={type} value={type}>
                        {formatMessage(messages[type])}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field label={formatMessage(messages.currency)} error={error?.currency?.message}>
                {(ids) => (
                  <select {...ids} {...form.register(`prices.${index}.currency`)}>
                    {CURRENCIES.map((currency) => (
                      <option key={currency} value={currency}>
                        {currency.toUpperCase()}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            </div>
            {row.type === "seat_based" && <SeatTierFields form={form} index={index} />}
            {row.type !== "free" && row.type !== "seat_based" && (
              <div className="field-row">
                <Field
                  label={formatMessage(row.type === "custom" ? messages.minimum : row.type === "metered_unit" ? messages.unitAmount : messages.amount)}
                  hint={row.type === "custom" ? formatMessage(messages.minimumHint) : undefined}
                  error={error?.amount?.message}
                >
                  {(ids) => <input {...ids} {...form.register(`prices.${index}.amount`)} inputMode="decimal" autoComplete="off" />}
                </Field>
                {row.type === "custom" && (
                  <Field label={formatMessage(messages.preset)} hint={formatMessage(messages.optional)} error={error?.preset?.message}>
                    {(ids) => <input {...ids} {...form.register(`prices.${index}.preset`)} inputMode="decimal" autoComplete="off" />}
                  </Field>
                )}
              </div>
            )}
            {row.type === "metered_unit" && (
              <div className="field-row">
                <Field label={formatMessage(messages.meter)} hint={meters.isSuccess && meterChoices.length === 0 ? formatMessage(messages.noMeters) : undefined} error={error?.meterId?.message}>
                  {(ids) => (
                    <select {...ids} {...form.register(`prices.${index}.meterId`)}>
                      <option value="">{formatMessage(messages.chooseMeter)}</option>
                      {meterChoices.map((meter) => (
                        <option key={meter.id} value={meter.id}>
                          {meter.name}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                <Field label={formatMessage(messages.cap)} hint={formatMessage(messages.optional)} error={error?.cap?.message}>
                  {(ids) => <input {...ids} {...form.register(`prices.${index}.cap`)} inputMode="decimal" autoComplete="off" />}
                </Field>
              </div>
            )}
            {prices.fields.length > 1 && (
              <Button variant="ghost" onClick={() => prices.remove(index)}>
                {formatMessage(messages.remove, { number })}
              </Button>
            )}
          </fieldset>
        );
      })}
      <Button variant="secondary" onClick={() => prices.append(newPriceRow(CURRENCIES.find((currency) => !rows.some((row) => row.currency === currency)) ?? "usd"))}>
        {formatMessage(messages.add)}
      </Button>
    </fieldset>
  );
}
