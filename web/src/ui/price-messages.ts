import { defineMessage } from "react-intl";

/** A recurring price, wherever one is shown ("$5.00 a month", "$12.00 every 3 months"): `price` already formatted. */
export const pricePerInterval = defineMessage<{ price: string; count: number; interval: string }>({
  id: "price.perInterval",
  defaultMessage:
    "{interval, select, day {{count, plural, one {{price} a day} other {{price} every # days}}} week {{count, plural, one {{price} a week} other {{price} every # weeks}}} month {{count, plural, one {{price} a month} other {{price} every # months}}} other {{count, plural, one {{price} a year} other {{price} every # years}}}}",
});
