import type { WorkFailure } from "@tollgate/kit";
import type { WebhookEventRow } from "../events/events.sql.js";

/** The dispatcher's background work, as set-aside work names it: delivering one stored event. */
export const WEBHOOK_DELIVERY = "webhook_delivery";

/** An event as an item of that work: its seller sees it, and may send it again, once set aside. */
export const deliveryItem = (event: Pick<WebhookEventRow, "id" | "organization_id">): Omit<WorkFailure, "reason"> => ({
  worker: WEBHOOK_DELIVERY,
  item: event.id,
  organizationId: event.organization_id,
});
