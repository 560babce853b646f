import type { UnitOfWork } from "@tollgate/kit";
import { webhookEndpointDisabled } from "@tollgate/proto";
import type { Parts } from "../parts.js";
import { skipPending } from "../events/events.sql.js";
import { lockEnabledEndpoint, updateEndpoint } from "../endpoints/endpoints.sql.js";
import { lastAttemptsFailed } from "./deliveries.sql.js";

/**
 * Turns an endpoint off once its last attempts have all failed: what waits for it is skipped and the
 * organization's owners and admins are mailed (through the auth service, by event). Row-locking the
 * endpoint makes replicas agree that it happened once.
 */
export async function disableIfFailing(dispatcher: Pick<Parts, "config" | "access" | "logger">, unit: UnitOfWork, endpointId: string): Promise<boolean> {
  const { config, access } = dispatcher;
  const threshold = config.WEBHOOK_DISABLE_AFTER_FAILURES;
  if (!(await lastAttemptsFailed(unit.db, endpointId, threshold))) return false;
  const endpoint = await lockEnabledEndpoint(unit.db, endpointId);
  if (!endpoint) return false;
  await updateEndpoint(unit.db, endpointId, { enabled: false });
  await skipPending(unit.db, endpointId);
  unit.announce(webhookEndpointDisabled, {
    organization_id: endpoint.organization_id,
    endpoint_id: endpoint.id,
    url: endpoint.url,
    failed_attempts: threshold,
    recipient_user_ids: await access.managers(endpoint.organization_id),
    manage_url: `${config.PUBLIC_URL.replace(/\/$/, "")}/organizations`,
  });
  dispatcher.logger.warn({ endpointId, organizationId: endpoint.organization_id, failedAttempts: threshold }, "turned off a webhook endpoint whose deliveries kept failing");
  return true;
}
