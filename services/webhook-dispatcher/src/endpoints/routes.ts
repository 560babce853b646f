import { apiVersionOf, defineEndpoint, listResource, notPermitted, pageJson, pageOf, randomId, reachable, type Endpoint } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { newSecret } from "../deliveries/signing.js";
import type { Parts } from "../parts.js";
import { insertEvent, skipPending } from "../events/events.sql.js";
import { testEventFor } from "../events/test-event.js";
import { eventJson } from "../deliveries/output.js";
import { WebhookEvent } from "../deliveries/schemas.js";
import { endpoints, findEndpoint, insertEndpoint, updateEndpoint, type EndpointRow } from "./endpoints.sql.js";
import { endpointJson } from "./output.js";
import { EndpointCreate, EndpointIdParams, EndpointListQuery, EndpointUpdate, WebhookEndpoint } from "./schemas.js";
import { rotatedSecret } from "./secrets.js";
import { endpointUrl } from "./url-policy.js";

const TAG = "webhooks";

export function endpointEndpoints(dispatcher: Parts): Endpoint[] {
  const { db, units, access, vault, config, wakeScheduler } = dispatcher;
  const url = endpointUrl(config);
  const endpoint = async (identity: IdentityClaims, scope: "webhooks:read" | "webhooks:write", endpointId: string) =>
    reachable(access, identity, scope, await findEndpoint(db, endpointId), "Webhook endpoint");
  // The secret is shown to those who may manage the endpoint; readers see that there is one.
  const json = async (identity: IdentityClaims, row: EndpointRow) => endpointJson(vault, row, await access.may(identity, "webhooks:write", row.organization_id));

  /** Turning an endpoint off (or deleting it) skips what waited for it; turning it on resumes delivery of what comes next. */
  const change = (row: EndpointRow, changes: Parameters<typeof updateEndpoint>[2]) =>
    units.run(async (unit) => {
      const updated = await updateEndpoint(unit.db, row.id, changes);
      if (changes.enabled === false || changes.deleted_at) await skipPending(unit.db, row.id);
      if (changes.enabled === true) unit.afterCommit(wakeScheduler);
      return updated ?? row;
    });

  return [
    defineEndpoint(
      "/v1/webhooks/endpoints",
      { method: "GET", query: EndpointListQuery, response: listResource(WebhookEndpoint, "ListResource_WebhookEndpoint_"), summary: "List webhook endpoints", tag: TAG },
      async ({ query, identity }) => {
        const found = endpoints(db).whereIn("organization_id", await access.organizationIds(identity, "webhooks:read"));
        if (query.organization_id) void found.whereIn("organization_id", query.organization_id);
        const { rows, total } = await pageOf<EndpointRow, "created_at">(found, { ...query, sort: [{ property: "created_at", descending: true }], columns: { created_at: "created_at" }, table: "webhook_endpoints" });
        return pageJson(await Promise.all(rows.map((row) => json(identity, row))), total, query.limit);
      },
    ),

    defineEndpoint(
      "/v1/webhooks/endpoints",
      {
        method: "POST",
        status: 201,
        response: WebhookEndpoint,
        summary: "Create a webhook endpoint",
        tag: TAG,
        body: EndpointCreate(url),
      },
      async ({ body, identity, req }) => {
        const organizationId = await access.organizationFor(identity, "webhooks:write", body.organization_id);
        const created = await insertEndpoint(db, {
          id: randomId(32),
          organization_id: organizationId,
          url: body.url,
          name: body.name ?? null,
          format: body.format,
          events: body.events,
          enabled: true,
          ordered: body.ordered,
          // An endpoint made with SDK 1.x pinned to a version gets that version's payloads, as its code expects.
          api_version: body.api_version ?? apiVersionOf(req.headers),
          secret: vault.seal(newSecret()),
        });
        return json(identity, created);
      },
    ),

    defineEndpoint("/v1/webhooks/endpoints/:id", { method: "GET", params: EndpointIdParams, response: WebhookEndpoint, summary: "Get a webhook endpoint", tag: TAG }, async ({ params, identity }) => json(identity, await endpoint(identity, "webhooks:read", params.id))),

    defineEndpoint(
      "/v1/webhooks/endpoints/:id",
      {
        method: "PATCH",
        params: EndpointIdParams,
        response: WebhookEndpoint,
        summary: "Update a webhook endpoint",
        tag: TAG,
        body: EndpointUpdate(url),
      },
      async ({ params, body, identity }) => {
        const existing = await endpoint(identity, "webhooks:write", params.id);
        const updated = await change(existing, {
          ...(body.url ? { url: body.url } : {}),
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.format ? { format: body.format } : {}),
          ...(body.events ? { events: body.events } : {}),
          ...(typeof body.enabled === "boolean" ? { enabled: body.enabled } : {}),
          ...(typeof body.ordered === "boolean" ? { ordered: body.ordered } : {}),
          ...(body.api_version ? { api_version: body.api_version } : {}),
        });
        return json(identity, updated);
      },
    ),

    defineEndpoint("/v1/webhooks/endpoints/:id", { method: "DELETE", status: 204, params: EndpointIdParams, summary: "Delete a webhook endpoint", tag: TAG }, async ({ params, identity }) => {
      await change(await endpoint(identity, "webhooks:write", params.id), { deleted_at: new Date() });
    }),

    defineEndpoint(
      "/v1/webhooks/endpoints/:id/test",
      { method: "POST", status: 202, params: EndpointIdParams, response: WebhookEvent, summary: "Send a test event to a webhook endpoint", tag: TAG },
      async ({ params, identity }) => {
        const existing = await endpoint(identity, "webhooks:write", params.id);
        // A switched-off endpoint is sent nothing, so the test would wait for ever.
        if (!existing.enabled) throw notPermitted("The webhook endpoint is disabled: enable it to send it a test event.");
        const event = await units.run(async (unit) => {
          const stored = await insertEvent(unit.db, testEventFor(existing));
          unit.afterCommit(wakeScheduler);
          return stored;
        });
        return eventJson(event);
      },
    ),

    defineEndpoint("/v1/webhooks/endpoints/:id/secret", { method: "PATCH", params: EndpointIdParams, response: WebhookEndpoint, summary: "Rotate a webhook endpoint's secret", tag: TAG }, async ({ params, identity }) => {
      const existing = await endpoint(identity, "webhooks:write", params.id);
      return json(identity, await change(existing, rotatedSecret(vault, existing, config.WEBHOOK_ROTATION_OVERLAP_SECONDS)));
    }),
  ];
}
