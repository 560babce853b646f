import type { Knex, MembershipRow } from "@tollgate/kit";
import { webhookEndpointDisabled } from "@tollgate/proto";
import type { Dispatcher } from "../dispatcher.js";
import { skipPending } from "../events/events.sql.js";
import type { EndpointRow } from "../endpoints/endpoints.sql.js";
import { lastAttemptsFailed } from "./deliveries.sql.js";

/** Roles told by mail when an endpoint of their organization is turned off. */
const ALERTED_ROLES = ["owner", "admin"];

/**
 * Turns an endpoint off once its last attempts have all failed: what waits for it is skipped and the
 * organization's owners and admins are mailed (through the auth service, by event). Row-locking the
 * endpoint makes replicas agree that it happened once.
 */
export async function disableIfFailing(dispatcher: Dispatcher, trx: Knex.Transaction, endpointId: string): Promise<boolean> {
  const { config, outbox } = dispatcher;
  const threshold = config.WEBHOOK_DISABLE_AFTER_FAILURES;
  if (!(await lastAttemptsFailed(trx, endpointId, threshold))) return false;
  const endpoint = await trx<EndpointRow>("webhook_endpoints").where({ id: endpointId, enabled: true }).whereNull("deleted_at").forUpdate().first();
  if (!endpoint) return false;
  await trx<EndpointRow>("webhook_endpoints").where({ id: endpointId }).update({ enabled: false, modified_at: new Date() });
  await skipPending(trx, endpointId);
  const alerted = await trx<MembershipRow>("memberships").where({ organization_id: endpoint.organization_id }).select("user_id", "role");
  await outbox.emit(trx, webhookEndpointDisabled, {
    organization_id: endpoint.organization_id,
    endpoint_id: endpoint.id,
    url: endpoint.url,
    failed_attempts: threshold,
    recipient_user_ids: alerted.filter((member) => member.role.split(",").some((role) => ALERTED_ROLES.includes(role.trim()))).map((member) => member.user_id),
    manage_url: `${config.PUBLIC_URL.replace(/\/$/, "")}/organizations`,
  });
  dispatcher.logger.warn({ endpointId, organizationId: endpoint.organization_id, failedAttempts: threshold }, "turned off a webhook endpoint whose deliveries kept failing");
  return true;
}
