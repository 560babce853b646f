import { z } from "zod";
import type { AuthenticatorTransportFuture } from "@simplewebauthn/server";
import { isoTimestamp } from "@tollgate/kit";
import { Session } from "../sessions/schemas.js";
import { User } from "../users/schemas.js";

/** better-auth's Passkey, as list, rename and registration answer it. */
export const Passkey = z
  .strictObject({
    id: z.string(),
    name: z.string().nullable(),
    publicKey: z.string().meta({ description: "The credential's COSE public key, base64" }),
    userId: z.string(),
    credentialID: z.string(),
    counter: z.number().int(),
    deviceType: z.string().meta({ description: "singleDevice, or multiDevice for a synced passkey" }),
    backedUp: z.boolean(),
    transports: z.string().nullable().meta({ description: "Comma-separated" }),
    aaguid: z.string().nullable(),
    createdAt: isoTimestamp(),
  })
  .meta({ id: "Passkey" });

export const Passkeys = z.array(Passkey);

export const RenamedPasskey = z.strictObject({ passkey: Passkey });

/** A passkey registered with createSession: the session begun with it, as sign-in answers. */
export const RegisteredPasskey = Passkey.extend({ session: Session, user: User });

const KNOWN_TRANSPORTS: readonly string[] = ["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"] satisfies AuthenticatorTransportFuture[];
const isKnownTransport = (transport: string): transport is AuthenticatorTransportFuture => KNOWN_TRANSPORTS.includes(transport);

/** How an authenticator can be reached; ones this WebAuthn library does not know yet are left out rather than refused. */
export const Transports = z.array(z.string()).transform((transports) => transports.filter(isKnownTransport));

/** A credential the browser may use or must not register again. */
const CredentialDescriptor = z.strictObject({ id: z.string(), type: z.literal("public-key"), transports: z.array(z.string()).optional() });

/** WebAuthn's PublicKeyCredentialCreationOptionsJSON, as navigator.credentials.create takes it. */
export const RegistrationOptions = z.strictObject({
  challenge: z.string(),
  rp: z.strictObject({ name: z.string(), id: z.string() }),
  user: z.strictObject({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.strictObject({ alg: z.number(), type: z.literal("public-key") })),
  timeout: z.number(),
  attestation: z.string(),
  excludeCredentials: z.array(CredentialDescriptor),
  authenticatorSelection: z.strictObject({
    residentKey: z.string(),
    userVerification: z.string(),
    requireResidentKey: z.boolean(),
    authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  }),
  extensions: z.record(z.string(), z.unknown()).optional(),
  hints: z.array(z.string()),
});

/** WebAuthn's PublicKeyCredentialRequestOptionsJSON; without allowCredentials any passkey of this site may answer (autofill). */
export const AuthenticationOptions = z.strictObject({
  rpId: z.string(),
  challenge: z.string(),
  allowCredentials: z.array(CredentialDescriptor).optional(),
  timeout: z.number(),
  userVerification: z.string(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});

export const RegistrationOptionsQuery = z.object({
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  /** The name the authenticator shows for the account; the signed-in user's e-mail when absent. */
  name: z.string().optional(),
  context: z.string().optional(),
});

/** What the browser's credential answers have in common (base64url fields throughout). */
const Credential = {
  id: z.string().min(1),
  rawId: z.string().min(1),
  type: z.literal("public-key"),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  /** better-auth's client keeps these to itself; none is used here. */
  clientExtensionResults: z.object({}).default({}),
};

/** WebAuthn's RegistrationResponseJSON. */
const RegistrationResponse = z.object({
  ...Credential,
  response: z.object({
    clientDataJSON: z.string(),
    attestationObject: z.string(),
    transports: Transports.optional(),
    authenticatorData: z.string().optional(),
    publicKeyAlgorithm: z.number().optional(),
    publicKey: z.string().optional(),
  }),
});

/** WebAuthn's AuthenticationResponseJSON. */
const AuthenticationResponse = z.object({
  ...Credential,
  response: z.object({
    clientDataJSON: z.string(),
    authenticatorData: z.string(),
    signature: z.string(),
    userHandle: z.string().optional(),
  }),
});

export const RegistrationVerification = z.object({
  response: RegistrationResponse,
  name: z.string().trim().optional(),
  createSession: z.boolean().optional(),
});

export const AuthenticationVerification = z.object({ response: AuthenticationResponse });

export const PasskeyDeletion = z.object({ id: z.string().min(1) });

export const PasskeyRename = z.object({ id: z.string().min(1), name: z.string().trim().min(1) });
