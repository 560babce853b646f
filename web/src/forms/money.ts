/** Money as the console's forms take it: the currencies a seller prices and discounts in, and amounts typed in a currency's main unit. */

export const CURRENCIES = ["usd", "eur", "gbp", "pln", "try", "uah"] as const;

/** An amount typed in the currency's main unit ("19.99") as the API's minor unit (1999). */
export const minorUnits = (amount: string) => Math.round(Number(amount.replace(",", ".")) * 100);
