import { z } from "zod";
import { API_VERSIONS, isoTimestamp, paging, repeated } from "@tollgate/kit";
import { WEBHOOK_EVENT_TYPES } from "@tollgate/proto";
import { WEBHOOK_FORMATS } from "../deliveries/formats.js";
import type { EndpointUrl } from "./url-policy.js";

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
    api_version: z.enum(API_VERSIONS).meta({ description: "The API version of the payloads, sent with each delivery as `webhook-api-version`" }),
    uses_standard_webhook_signature: z.literal(false),
  })
  .meta({ id: "WebhookEndpoint" });

/** The events an endpoint asks for, each once. */
const eventTypes = z.array(z.enum(WEBHOOK_EVENT_TYPES)).transform((types) => [...new Set(types)]);

export const EndpointListQuery = z.object({ ...paging, organization_id: repeated(z.string()) });

/** An endpoint named in the path. */
export const EndpointIdParams = z.object({ id: z.string() });

/** A new endpoint, its address held to `url`, the deployment's policy for endpoint addresses. */
export const EndpointCreate = (url: EndpointUrl) =>
  z.object({
    url,
    name: z.string().min(1).max(255).nullish(),
    format: z.enum(WEBHOOK_FORMATS),
    events: eventTypes,
    organization_id: z.string().nullish(),
    ordered: z.boolean().default(true),
    /** Left out, the version the request is made in. */
    api_version: z.enum(API_VERSIONS).nullish(),
  });

/** Changes to an endpoint; a field left out or null stays as it is (a name set to null clears it). */
export const EndpointUpdate = (url: EndpointUrl) =>
  z.object({
    url: url.nullish(),
    name: z.string().min(1).max(255).nullish(),
    format: z.enum(WEBHOOK_FORMATS).nullish(),
    events: eventTypes.nullish(),
    enabled: z.boolean().nullish(),
    ordered: z.boolean().nullish(),
    api_version: z.enum(API_VERSIONS).nullish(),
  });
