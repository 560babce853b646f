import type { SecretVault } from "@tollgate/kit";
import type { EndpointRow } from "./endpoints.sql.js";

/** What callers who may read but not manage an endpoint see in place of its secret. */
export const HIDDEN_SECRET = "polar_whs_hidden";

/** An endpoint as Polar's WebhookEndpoint; the secret in clear only for those who may manage it. */
export const endpointJson = (vault: SecretVault, endpoint: EndpointRow, showSecret: boolean) => ({
  created_at: endpoint.created_at,
  modified_at: endpoint.modified_at,
  id: endpoint.id,
  url: endpoint.url,
  name: endpoint.name,
  format: endpoint.format,
  secret: showSecret ? vault.open(endpoint.secret) : HIDDEN_SECRET,
  organization_id: endpoint.organization_id,
  events: endpoint.events,
  enabled: endpoint.enabled,
  ordered: endpoint.ordered,
  api_version: endpoint.api_version,
  // Signed as Polar signed before Standard Webhooks keys: an HMAC keyed by the whole secret's bytes (deliveries/signing.ts).
  uses_standard_webhook_signature: false,
});
