import type { Knex } from "@tollgate/kit";
import type { EndpointRow } from "../endpoints/endpoints.sql.js";

export type EventStatus = "pending" | "succeeded" | "failed" | "skipped";

/** A billing event bound for one endpoint (Polar's WebhookEvent): the payload and where its delivery stands. */
export interface WebhookEventRow {
  id: string;
  sequence: string;
  endpoint_id: string;
  organization_id: string;
  source_event_id: string;
  type: string;
  payload: string;
  status: EventStatus;
  attempts: number;
  run_at: Date | null;
  leased_until: Date | null;
  last_http_code: number | null;
  created_at: Date;
  modified_at: Date | null;
}

export const findEvent = (db: Knex, id: string) => db<WebhookEventRow>("webhook_events").where({ id }).first();

/** An event with the API version its payload is sent in: its endpoint's. */
export type VersionedEventRow = WebhookEventRow & Pick<EndpointRow, "api_version">;

// crosses into endpoints: an event is sent in its endpoint's API version.
export const findEvents = (db: Knex, ids: string[]): Promise<VersionedEventRow[]> =>
  db("webhook_events as event").join("webhook_endpoints as endpoint", "endpoint.id", "event.endpoint_id").whereIn("event.id", ids).select("event.*", "endpoint.api_version");

/**
 * Stores a billing event once for each enabled endpoint of its organization that wants its type,
 * due now, in one statement; a second copy of the same bus event adds nothing.
 */
export async function insertEventForSubscribers(db: Knex, event: Pick<WebhookEventRow, "organization_id" | "source_event_id" | "type" | "payload">): Promise<void> {
  await db.raw(
    `insert into webhook_events (id, endpoint_id, organization_id, source_event_id, type, payload, run_at)
     select replace(gen_random_uuid()::text, '-', ''), endpoint.id, endpoint.organization_id, ?, ?, ?, now()
     from webhook_endpoints endpoint
     where endpoint.organization_id = ? and endpoint.enabled and endpoint.deleted_at is null and ? = any(endpoint.events)
     on conflict (endpoint_id, source_event_id) do nothing`,
    [event.source_event_id, event.type, event.payload, event.organization_id, event.type],
  );
}

/** Stores an event for one endpoint, due at its `run_at`, and reads it back with the endpoint's API version. */
export async function insertEvent(db: Knex, event: Pick<WebhookEventRow, "id" | "endpoint_id" | "organization_id" | "source_event_id" | "type" | "payload" | "run_at">): Promise<VersionedEventRow> {
  await db<WebhookEventRow>("webhook_events").insert(event);
  const [stored] = await findEvents(db, [event.id]);
  if (!stored) throw new Error(`webhook event ${event.id} was not stored`);
  return stored;
}

/** An endpoint was turned off or deleted: what was waiting for it is not sent. */
export const skipPending = (db: Knex, endpointId: string) =>
  db<WebhookEventRow>("webhook_events").where({ endpoint_id: endpointId, status: "pending" }).update({ status: "skipped", run_at: null, leased_until: null, modified_at: new Date() });

/** Sends a stored event again, from a fresh set of attempts, with the same id (so the same webhook-id). */
export const requeue = (db: Knex, id: string) =>
  db<WebhookEventRow>("webhook_events").where({ id }).update({ status: "pending", attempts: 0, run_at: new Date(), leased_until: null, modified_at: new Date() });

/**
 * Deletes up to `limit` settled events (their payloads and attempts with them) created before
 * `cutoff`, and says which; pending ones stay until settled.
 */
export async function deleteSettledBefore(db: Knex, cutoff: Date, limit: number): Promise<string[]> {
  const old = db<WebhookEventRow>("webhook_events").where("created_at", "<", cutoff).whereNot("status", "pending").limit(limit).select("id");
  const deleted = await db<WebhookEventRow>("webhook_events").whereIn("id", old).delete().returning("id");
  return deleted.map((event) => event.id);
}
