import type { ApiVersion, Knex } from "@tollgate/kit";
import type { WebhookFormat } from "../deliveries/formats.js";

export interface EndpointRow {
  id: string;
  organization_id: string;
  url: string;
  name: string | null;
  format: WebhookFormat;
  events: string[];
  enabled: boolean;
  ordered: boolean;
  /** The Polar API version its payloads are in, sent with each as `webhook-api-version`. */
  api_version: ApiVersion;
  /** Sealed by the vault, as is the previous secret. */
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  modified_at: Date | null;
  deleted_at: Date | null;
}

export type EndpointChanges = Partial<Pick<EndpointRow, "url" | "name" | "format" | "events" | "enabled" | "ordered" | "secret" | "previous_secret" | "previous_secret_expires_at" | "deleted_at">>;

export const endpoints = (db: Knex) => db<EndpointRow>("webhook_endpoints").whereNull("deleted_at");

export const findEndpoint = (db: Knex, id: string) => endpoints(db).where({ id }).first();

/** An endpoint still turned on, locked for the rest of the transaction (so replicas agree on turning it off once). */
export const lockEnabledEndpoint = (db: Knex, id: string) => endpoints(db).where({ id, enabled: true }).forUpdate().first();

export async function insertEndpoint(db: Knex, endpoint: Omit<EndpointRow, "created_at" | "modified_at" | "deleted_at" | "previous_secret" | "previous_secret_expires_at">): Promise<EndpointRow> {
  const [row] = await db<EndpointRow>("webhook_endpoints").insert(endpoint).returning("*");
  if (!row) throw new Error("insert into webhook_endpoints returned no row");
  return row;
}

export async function updateEndpoint(db: Knex, id: string, changes: EndpointChanges): Promise<EndpointRow | undefined> {
  const [row] = await db<EndpointRow>("webhook_endpoints").where({ id }).update({ ...changes, modified_at: new Date() }).returning("*");
  return row;
}
