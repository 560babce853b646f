import { useQuery } from "@tanstack/react-query";
import { defineMessages, useIntl } from "react-intl";
import { QueryState } from "../ui/query-state";
import { productChoices } from "./products/queries";

const messages = defineMessages({
  loading: { id: "seller.productPicker.loading", defaultMessage: "Loading products…" },
  none: { id: "seller.productPicker.none", defaultMessage: "This organization has no products yet." },
});

/** The seller's current products as checkboxes (the first hundred, newest first): which ones something applies to. */
export function ProductPicker({ organizationId, legend, hint, selected, onChange, error }: { organizationId: string; legend: string; hint?: string; selected: string[]; onChange: (ids: string[]) => void; error?: string }) {
  const { formatMessage } = useIntl();
  const products = useQuery(productChoices(organizationId, "-created_at"));
  return (
    <fieldset className="fieldset" aria-invalid={error ? true : undefined}>
      <legend>{legend}</legend>
      {hint && <p className="hint">{hint}</p>}
      <QueryState query={products} loading={messages.loading} isEmpty={({ items }) => items.length === 0} empty={<p className="muted">{formatMessage(messages.none)}</p>}>
        {({ items }) =>
          items.map((product) => (
            <label className="checkbox" key={product.id}>
              <input
                type="checkbox"
                checked={selected.includes(product.id)}
                onChange={(event) => onChange(event.target.checked ? [...selected, product.id] : selected.filter((id) => id !== product.id))}
              />
              {product.name}
            </label>
          ))
        }
      </QueryState>
      {error && <p className="field-error">{error}</p>}
    </fieldset>
  );
}
