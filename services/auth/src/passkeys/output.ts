import type { AuthenticatorTransportFuture } from "@simplewebauthn/server";
import type { PasskeyRow } from "./passkeys.sql.js";
import { Transports } from "./schemas.js";

/** A passkey as better-auth's plugin returns it. */
export function passkeyJson(passkey: PasskeyRow) {
  return {
    id: passkey.id,
    name: passkey.name,
    publicKey: passkey.public_key,
    userId: passkey.user_id,
    credentialID: passkey.credential_id,
    counter: passkey.counter,
    deviceType: passkey.device_type,
    backedUp: passkey.backed_up,
    transports: passkey.transports,
    aaguid: passkey.aaguid,
    createdAt: passkey.created_at,
  };
}

/** A stored passkey as WebAuthn names a credential to the browser (to use, or not to register again). */
export function credentialDescriptor(passkey: PasskeyRow): { id: string; transports?: AuthenticatorTransportFuture[] } {
  return { id: passkey.credential_id, transports: passkey.transports ? Transports.parse(passkey.transports.split(",")) : undefined };
}
