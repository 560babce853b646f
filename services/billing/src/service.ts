import { polarErrors, defineService } from "@tollgate/kit";

/** Products, checkouts, orders and subscriptions behind `/v1` (Polar's public API). */
export const billingService = defineService({
  name: "billing",
  schema: "billing",
  defaultPort: 3003,
  errors: polarErrors,
  migrations: {},
});
