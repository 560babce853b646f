import { claimableSql, heldSql, LeaseKeeper, release, takeSql, WorkFailures, type ApiVersion, type Knex, type Lease, type Logger } from "@tollgate/kit";
import type { EventStatus, WebhookEventRow } from "../events/events.sql.js";
import type { EndpointRow } from "../endpoints/endpoints.sql.js";
import type { z } from "zod";
import type { AttemptResult } from "./sender.js";
import type { DeliveryFilters } from "./schemas.js";
import { WEBHOOK_DELIVERY } from "./set-aside.js";

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
  /** The API version the payload went out in; null for attempts made before it was kept. */
  api_version: ApiVersion | null;
  created_at: Date;
  modified_at: Date | null;
}

/** An event taken for sending, with what the sender needs of its endpoint. */
export type ClaimedEvent = WebhookEventRow & Pick<EndpointRow, "url" | "format" | "ordered" | "api_version" | "secret" | "previous_secret" | "previous_secret_expires_at">;

/** Pending events, each claimed by one replica while it sends it; a claim counts an attempt. */
const deliveryLease: Lease = { table: "webhook_events", key: "id", touched: "modified_at", pending: (event) => `${event}.status = 'pending'` };

/** Keeps the events a replica claimed held for as long as it is sending them and recording how it went. */
export const deliveryKeeper = (db: Knex, leaseMs: number, logger: Logger) =>
  new LeaseKeeper<Pick<ClaimedEvent, "id" | "attempts">>({ db, lease: deliveryLease, leaseMs, logger, claimOf: (event) => ({ key: event.id, mark: event.attempts }) });

/**
 * Takes due events for sending and holds them for `leaseMs`, at most `limit` in all and, per
 * endpoint, as many as its free slots in this process (`inFlight`). An endpoint that keeps order
 * gives a run of its oldest pending events, and only when none before them is waiting for a retry
 * or held; they are to be sent one after another. SKIP LOCKED lets replicas claim side by side
 * without taking the same event; for an endpoint that keeps order, a lock on the endpoint for the
 * length of the statement keeps two replicas from taking runs of it at once. An event set aside
 * after failing again and again is passed over (and holds back no later one).
 */
export async function claimDue(db: Knex, options: { limit: number; perEndpoint: number; inFlight: Map<string, number>; leaseMs: number }): Promise<ClaimedEvent[]> {
  if (options.limit <= 0) return [];
  const take = takeSql(deliveryLease, "claimed", options.leaseMs);
  const notSetAside = WorkFailures.notSetAside(WEBHOOK_DELIVERY, "event.id");
  const { rows } = await db.raw<{ rows: ClaimedEvent[] }>(
    `with claimable as (
       select due.id from webhook_endpoints endpoint
       left join unnest(?::text[], ?::int[]) as busy(endpoint_id, in_flight) on busy.endpoint_id = endpoint.id
       cross join lateral (
         select event.id, event.run_at, event.sequence from webhook_events event
         where event.endpoint_id = endpoint.id and ${claimableSql(deliveryLease, "event")} and ${notSetAside.sql}
           and (not endpoint.ordered or not exists (
             select 1 from webhook_events earlier
             where earlier.endpoint_id = endpoint.id and earlier.status = 'pending' and earlier.sequence < event.sequence
               and (earlier.run_at > now() or earlier.leased_until >= now())))
         order by event.sequence
         limit greatest(0, ? - coalesce(busy.in_flight, 0))
         for update of event skip locked
       ) due
       where endpoint.enabled and endpoint.deleted_at is null
         and (not endpoint.ordered or pg_try_advisory_xact_lock(hashtextextended(endpoint.id, 0)))
       order by due.run_at, due.sequence
       limit ?
     )
     update webhook_events claimed
     set ${take.sql}
     from claimable, webhook_endpoints endpoint
     where claimed.id = claimable.id and endpoint.id = claimed.endpoint_id
     returning claimed.*, endpoint.url, endpoint.format, endpoint.ordered, endpoint.api_version, endpoint.secret, endpoint.previous_secret, endpoint.previous_secret_expires_at`,
    [[...options.inFlight.keys()], [...options.inFlight.values()], ...notSetAside.bindings, options.perEndpoint, options.limit, ...take.bindings],
  );
  return rows;
}

/** Lets go of claimed events that were not sent after all, as if they had not been claimed. */
export const releaseClaims = (db: Knex, events: Pick<WebhookEventRow, "id" | "attempts">[]): Promise<void> =>
  release(db, deliveryLease, events.map((event) => ({ key: event.id, mark: event.attempts })));

/** An attempt made, and where it leaves its event: done, given up, or due again at `run_at`. */
export interface Settlement {
  attemptId: string;
  /** The event as claimed; `attempts` counts this attempt. */
  event: Pick<ClaimedEvent, "id" | "endpoint_id" | "organization_id" | "attempts" | "api_version">;
  result: AttemptResult;
  status: EventStatus;
  runAt: Date | null;
}

/**
 * Records attempts and settles their events, as many as there are, in one statement (and so one
 * commit). Attempts are timed in the order given, which is the order they finished. An event
 * that is no longer this claim's (skipped since, redelivered, or claimed again after the lease
 * ran out) keeps its state; the attempt is recorded all the same.
 */
export async function settleAttempts(db: Knex, settlements: Settlement[]): Promise<void> {
  if (settlements.length === 0) return;
  const rows = settlements.map(({ attemptId, event, result, status, runAt }) => ({
    attempt_id: attemptId,
    event_id: event.id,
    endpoint_id: event.endpoint_id,
    api_version: event.api_version,
    claimed_attempts: event.attempts,
    succeeded: result.succeeded,
    http_code: result.httpCode,
    response: result.response,
    error: result.error,
    duration_ms: result.durationMs,
    status,
    run_at: runAt,
  }));
  await db.raw(
    `with settled as (
       select * from rows from (jsonb_to_recordset(?::jsonb) as (
         attempt_id text, event_id text, endpoint_id text, api_version text, claimed_attempts int, succeeded boolean, http_code int, response text, error text, duration_ms int, status text, run_at timestamptz
       )) with ordinality as settled(attempt_id, event_id, endpoint_id, api_version, claimed_attempts, succeeded, http_code, response, error, duration_ms, status, run_at, position)
     ), recorded as (
       insert into webhook_deliveries (id, webhook_event_id, endpoint_id, api_version, succeeded, http_code, response, error, duration_ms, created_at)
       select attempt_id, event_id, endpoint_id, api_version, succeeded, http_code, response, error, duration_ms, clock_timestamp() from settled order by position
     )
     update webhook_events event
     set status = settled.status, run_at = settled.run_at, leased_until = null, last_http_code = settled.http_code, modified_at = now()
     from settled
     where event.id = settled.event_id and ${heldSql(deliveryLease, "event", "settled.claimed_attempts")}`,
    [JSON.stringify(rows)],
  );
}

/** Whether the endpoint's last `count` attempts all failed (and it has had that many). */
export async function lastAttemptsFailed(db: Knex, endpointId: string, count: number): Promise<boolean> {
  const recent = await db<DeliveryRow>("webhook_deliveries").where({ endpoint_id: endpointId }).orderBy("created_at", "desc").orderBy("id").limit(count).select("succeeded");
  return recent.length === count && recent.every((attempt) => !attempt.succeeded);
}

const STATUS_CLASSES = { "2xx": [200, 299], "3xx": [300, 399], "4xx": [400, 499], "5xx": [500, 599] } as const;

/** The deliveries of these organizations' events that match the filters, newest first once paged. */
export function deliveriesFound(db: Knex, organizationIds: string[], filters: z.output<typeof DeliveryFilters>) {
  const found = db<DeliveryRow>("webhook_deliveries")
    // crosses into events: the filters are on the event a delivery sent, read in the same statement.
    .join<WebhookEventRow>("webhook_events", "webhook_events.id", "webhook_deliveries.webhook_event_id")
    .whereIn("webhook_events.organization_id", organizationIds)
    .select("webhook_deliveries.*");
  if (filters.endpoint_id) void found.whereIn("webhook_deliveries.endpoint_id", filters.endpoint_id);
  if (filters.start_timestamp) void found.where("webhook_deliveries.created_at", ">=", filters.start_timestamp);
  if (filters.end_timestamp) void found.where("webhook_deliveries.created_at", "<=", filters.end_timestamp);
  if (filters.succeeded !== undefined) void found.where("webhook_deliveries.succeeded", filters.succeeded);
  if (filters.http_code_class) void found.whereBetween("webhook_deliveries.http_code", [...STATUS_CLASSES[filters.http_code_class]]);
  if (filters.event_type) void found.whereIn("webhook_events.type", filters.event_type);
  if (filters.query) void found.where("webhook_events.payload", "ilike", `%${filters.query.replace(/[\\%_]/g, (char) => `\\${char}`)}%`);
  return found;
}
