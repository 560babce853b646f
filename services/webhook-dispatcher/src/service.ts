import { polarErrors, defineService } from "@tollgate/kit";

/** Sellers' webhook endpoints and the signed, retried delivery of billing events to them. */
export const webhookDispatcherService = defineService({
  name: "webhook-dispatcher",
  schema: "webhooks",
  defaultPort: 3004,
  errors: polarErrors,
  migrations: {},
});
