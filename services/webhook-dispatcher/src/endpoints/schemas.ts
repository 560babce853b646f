import { z } from "zod";
import { isoTimestamp } from "@tollgate/kit";
import { WEBHOOK_EVENT_TYPES } from "@tollgate/proto";
import { WEBHOOK_FORMATS } from "../deliveries/formats.js";

/** Polar's WebhookEndpoint, with `ordered`, Tollgate's own opt-out of in-order delivery. */
export const WebhookEndpoint = z
  .strictObject({
    created_at: isoTimestamp(),
    modified_at: isoTimestamp().nullable(),
    id: z.string(),
    url: z.url(),
    name: z.string().nullable(),
    format: z.enum(WEBHOOK_FORMATS),
    secret: z.string().meta({ description: "polar_whs_…; `polar_whs_hidden` to those who may read but not manage the endpoint" }),
    organization_id: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    enabled: z.boolean(),
    ordered: z.boolean().meta({ description: "Events reach this endpoint one at a time, in the order they happened" }),
  })
  .meta({ id: "WebhookEndpoint" });
