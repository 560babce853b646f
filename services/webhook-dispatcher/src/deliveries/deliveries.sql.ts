import type { Knex } from "@tollgate/kit";
import type { WebhookEventRow } from "../events/events.sql.js";
import type { EndpointRow } from "../endpoints/endpoints.sql.js";
import type { AttemptResult } from "./sender.js";

/** One attempt to deliver an event (Polar's WebhookDelivery). */
export interface DeliveryRow {
  id: string;
  webhook_event_id: string;
  endpoint_id: string;
  succeeded: boolean;
  http_code: number | null;
  response: string | null;
  error: string | null;
  duration_ms: number;
  created_at: Date;
  modified_at: Date | null;
}

/** An event taken for sending, with what the sender needs of its endpoint. */
export type ClaimedEvent = WebhookEventRow & Pick<EndpointRow, "url" | "format" | "secret" | "previous_secret" | "previous_secret_expires_at">;

/**
 * Takes due events for sending and holds them for `leaseMs`, at most `limit` in all and, per
 * endpoint, as many as its free slots in this process (`inFlight`). An endpoint that keeps order
 * gives only its oldest pending event, and only when no earlier one is waiting or in flight.
 * SKIP LOCKED lets replicas claim side by side without taking the same event.
 */
export async function claimDue(db: Knex, options: { limit: number; perEndpoint: number; inFlight: Map<string, number>; leaseMs: number }): Promise<ClaimedEvent[]> {
  if (options.limit <= 0) return [];
  const { rows } = await db.raw<{ rows: ClaimedEvent[] }>(
    `with claimable as (
       select due.id from webhook_endpoints endpoint
       left join unnest(?::text[], ?::int[]) as busy(endpoint_id, in_flight) on busy.endpoint_id = endpoint.id
       cross join lateral (
         select event.id, event.run_at, event.sequence from webhook_events event
         where event.endpoint_id = endpoint.id and event.status = 'pending' and event.run_at <= now()
           and (event.leased_until is null or event.leased_until < now())
           and (not endpoint.ordered or event.sequence = (
             select min(head.sequence) from webhook_events head where head.endpoint_id = endpoint.id and head.status = 'pending'))
         order by event.sequence
         limit greatest(0, ? - coalesce(busy.in_flight, 0))
         for update of event skip locked
       ) due
       where endpoint.enabled and endpoint.deleted_at is null
       order by due.run_at, due.sequence
       limit ?
     )
     update webhook_events claimed
     set leased_until = now() + make_interval(secs => ?), attempts = claimed.attempts + 1, modified_at = now()
     from claimable, webhook_endpoints endpoint
     where claimed.id = claimable.id and endpoint.id = claimed.endpoint_id
     returning claimed.*, endpoint.url, endpoint.format, endpoint.secret, endpoint.previous_secret, endpoint.previous_secret_expires_at`,
    [[...options.inFlight.keys()], [...options.inFlight.values()], options.perEndpoint, options.limit, options.leaseMs / 1000],
  );
  return rows;
}

/**
 * Records an attempt and settles its event in one statement. An event skipped meanwhile (its
 * endpoint turned off or deleted) stays skipped.
 */
export async function settleAttempt(
  db: Knex,
  attempt: Pick<DeliveryRow, "id" | "webhook_event_id" | "endpoint_id"> & AttemptResult,
  event: Partial<Pick<WebhookEventRow, "status" | "run_at" | "leased_until" | "last_http_code">>,
): Promise<void> {
  const recorded = db<DeliveryRow>("webhook_deliveries").insert({
    id: attempt.id,
    webhook_event_id: attempt.webhook_event_id,
    endpoint_id: attempt.endpoint_id,
    succeeded: attempt.succeeded,
    http_code: attempt.httpCode,
    response: attempt.response,
    error: attempt.error,
    duration_ms: attempt.durationMs,
  });
  await db
    .with("recorded", recorded)
    .table<WebhookEventRow>("webhook_events")
    .where({ id: attempt.webhook_event_id, status: "pending" })
    .update({ ...event, modified_at: new Date() });
}

/** Whether the endpoint's last `count` attempts all failed (and it has had that many). */
export async function lastAttemptsFailed(db: Knex, endpointId: string, count: number): Promise<boolean> {
  const recent = await db<DeliveryRow>("webhook_deliveries").where({ endpoint_id: endpointId }).orderBy("created_at", "desc").orderBy("id").limit(count).select("succeeded");
  return recent.length === count && recent.every((attempt) => !attempt.succeeded);
}
