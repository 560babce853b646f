import { z } from "zod";
import { isoTimestamp, listResource, momentInput } from "@tollgate/kit";
import { Customer } from "../customers/schemas.js";

const MetadataValue = z.union([z.string(), z.number(), z.boolean()]);

/**
 * One event of a batch, for a customer known by its id or by the seller's own id for it. A single
 * shape (rather than a union of two) so that a fault is reported at the field that has it.
 */
const EventCreate = z
  .object({
    timestamp: momentInput().optional(),
    name: z.string().min(1).max(128),
    organization_id: z.string().nullish(),
    external_id: z.string().max(256).nullish(),
    parent_id: z.string().nullish(),
    metadata: z.record(z.string().min(1).max(40), MetadataValue).optional(),
    customer_id: z.string().optional(),
    member_id: z.string().nullish(),
    external_customer_id: z.string().min(1).optional(),
    external_member_id: z.string().nullish(),
  })
  .superRefine((event, context) => {
    if ((event.customer_id === undefined) === (event.external_customer_id === undefined)) {
      context.addIssue({ code: "custom", path: ["customer_id"], message: "Give either customer_id or external_customer_id", input: event.customer_id });
    }
  });

export const EventsIngest = z.object({ events: z.array(EventCreate).min(1).max(1000) });
export type EventCreate = z.output<typeof EventCreate>;

export const EventsIngestResponse = z.strictObject({ inserted: z.int(), duplicates: z.int() }).meta({ id: "EventsIngestResponse" });

export const UserEvent = z
  .strictObject({
    id: z.string(),
    timestamp: isoTimestamp(),
    organization_id: z.string(),
    customer_id: z.string().nullable(),
    customer: Customer.nullable(),
    external_customer_id: z.string().nullable(),
    child_count: z.int(),
    parent_id: z.string().nullable(),
    label: z.string(),
    name: z.string(),
    source: z.literal("user"),
    metadata: z.record(z.string(), MetadataValue),
  })
  .meta({ id: "UserEvent" });

export const EventList = listResource(UserEvent, "ListResource_Event_");

export const EventName = z
  .strictObject({ name: z.string(), source: z.enum(["user", "system"]), occurrences: z.int(), first_seen: isoTimestamp(), last_seen: isoTimestamp() })
  .meta({ id: "EventName" });

export const EventNameList = listResource(EventName, "ListResource_EventName_");
