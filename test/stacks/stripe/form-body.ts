/** A form value as Stripe's API reads it: `a[b][0]=x` nests into objects (arrays are objects with index keys until `listOf`). */
export type FormValue = string | { [key: string]: FormValue };
export type Form = { [key: string]: FormValue };

/**
 * Reads an `application/x-www-form-urlencoded` body (or query) the way Stripe's API does: bracketed
 * keys nest (`payment_method_data[card][number]`), `expand[0]` and `expand[]` make lists.
 */
export function parseForm(text: string): Form {
  const form: Form = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const [head = "", ...rest] = key.split("[").map((part, index) => (index === 0 ? part : part.replace(/\]$/, "")));
    let at: Form = form;
    const path = [head, ...rest];
    path.forEach((part, index) => {
      const name = part === "" ? String(Object.keys(at).length) : part;
      if (index === path.length - 1) at[name] = value;
      else at = (typeof at[name] === "object" ? at[name] : (at[name] = {}));
    });
  }
  return form;
}

/** A text field of a form, or undefined. */
export const textOf = (value: FormValue | undefined): string | undefined => (typeof value === "string" ? value : undefined);

/** An object field of a form (empty when absent). */
export const formOf = (value: FormValue | undefined): Form => (typeof value === "object" ? value : {});

/** A list field (`x[0]=…&x[1]=…`), in index order. */
export const listOf = (value: FormValue | undefined): string[] =>
  typeof value === "object" ? Object.entries(value).sort(([a], [b]) => Number(a) - Number(b)).flatMap(([, item]) => (typeof item === "string" ? [item] : [])) : [];

/** `metadata[key]=value` as a plain record of strings. */
export const metadataOf = (value: FormValue | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(formOf(value)).flatMap(([key, item]) => (typeof item === "string" ? [[key, item]] : [])));
