import type { SecretVault } from "@tollgate/kit";
import { newSecret } from "../deliveries/signing.js";
import type { EndpointChanges, EndpointRow } from "./endpoints.sql.js";

/** The secrets a delivery is signed with now: the current one, and the previous one while its overlap lasts. */
export function signingSecrets(vault: SecretVault, endpoint: Pick<EndpointRow, "secret" | "previous_secret" | "previous_secret_expires_at">, now = new Date()): string[] {
  const current = vault.open(endpoint.secret);
  const previous = endpoint.previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > now ? vault.open(endpoint.previous_secret) : null;
  return previous ? [current, previous] : [current];
}

/** A new secret for the endpoint; the old one keeps signing beside it for `overlapSeconds`, so receivers can switch without losing a delivery. */
export function rotatedSecret(vault: SecretVault, endpoint: EndpointRow, overlapSeconds: number): EndpointChanges {
  return {
    secret: vault.seal(newSecret()),
    previous_secret: overlapSeconds > 0 ? endpoint.secret : null,
    previous_secret_expires_at: overlapSeconds > 0 ? new Date(Date.now() + overlapSeconds * 1000) : null,
  };
}
