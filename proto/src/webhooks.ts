import { z } from "zod";
import { defineEvent } from "./envelope.js";

const id = z.string().min(1);

/**
 * The dispatcher turned off an endpoint whose deliveries kept failing. It names the organization's
 * owners and admins, as its membership copy knows them, so the auth service can mail them.
 */
export const webhookEndpointDisabled = defineEvent(
  "webhook_endpoint.disabled",
  z.object({
    organization_id: id,
    endpoint_id: id,
    url: z.string(),
    failed_attempts: z.int().min(1),
    recipient_user_ids: z.array(id),
    manage_url: z.url(),
  }),
);
