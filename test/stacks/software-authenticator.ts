import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoCBOR } from "@simplewebauthn/server/helpers";

/** A credential the authenticator holds: an ES256 key pair for one site and one user. */
export interface SoftwareCredential {
  id: string;
  rpId: string;
  /** The user handle the site gave at registration (base64url), returned with each assertion as a discoverable credential does. */
  userHandle: string;
  privateKey: KeyObject;
  /** The signature counter, moved on by each assertion. */
  counter: number;
}

// authenticatorData flags (WebAuthn §6.1): user present, user verified, attested credential data included.
const USER_PRESENT = 0x01;
const USER_VERIFIED = 0x04;
const ATTESTED_CREDENTIAL = 0x40;
/** A software authenticator has no model to name: the all-zero AAGUID, as privacy-minded platforms send. */
const AAGUID = new Uint8Array(16);

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}

/** The P-256 public key as a COSE_Key (RFC 9053): kty EC2, alg ES256, crv P-256, x, y. */
function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: "jwk" });
  if (!jwk.x || !jwk.y) throw new Error("an EC public key has x and y");
  return isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x, "base64url")],
      [-3, Buffer.from(jwk.y, "base64url")],
    ]),
  );
}

/**
 * A WebAuthn authenticator in software, for tests and benchmarks that cannot drive a browser: it
 * makes ES256 passkeys (attestation "none") from a site's registration options and signs assertions
 * from its authentication options, answering with the JSON that better-auth's passkey client sends to
 * the verify endpoints. It plays the browser too: `origin` is where it says the ceremony happened.
 */
export class SoftwareAuthenticator {
  readonly credentials: SoftwareCredential[] = [];

  constructor(private readonly origin: string) {}

  /** Makes a new passkey for the site and user in `options` (navigator.credentials.create). */
  createCredential(options: PublicKeyCredentialCreationOptionsJSON): RegistrationResponseJSON {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const id = randomBytes(16);
    const credential: SoftwareCredential = { id: base64url(id), rpId, userHandle: options.user.id, privateKey, counter: 0 };
    const credentialIdLength = Buffer.alloc(2);
    credentialIdLength.writeUInt16BE(id.length);
    const authenticatorData = Buffer.concat([
      sha256(rpId),
      Buffer.from([USER_PRESENT | USER_VERIFIED | ATTESTED_CREDENTIAL]),
      uint32(credential.counter),
      AAGUID,
      credentialIdLength,
      id,
      coseKey(publicKey),
    ]);
    const noStatement = new Map<string, string>();
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ["fmt", "none"],
        ["attStmt", noStatement],
        ["authData", authenticatorData],
      ]),
    );
    this.credentials.push(credential);
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      response: {
        clientDataJSON: this.clientData("webauthn.create", options.challenge),
        attestationObject: base64url(attestationObject),
        transports: ["internal"],
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }

  /**
   * Signs the challenge in `options` with a passkey it holds for the site (navigator.credentials.get):
   * one the options allow, or, when they name none (autofill), the newest. `counter` overrides the
   * counter it would send, to play a cloned authenticator.
   */
  signAssertion(options: PublicKeyCredentialRequestOptionsJSON, { counter }: { counter?: number } = {}): AuthenticationResponseJSON {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const allowed = new Set((options.allowCredentials ?? []).map((credential) => credential.id));
    const credential = this.credentials.findLast((held) => held.rpId === rpId && (allowed.size === 0 || allowed.has(held.id)));
    if (!credential) throw new Error(`no passkey for ${rpId} among those allowed`);
    credential.counter = counter ?? credential.counter + 1;
    const authenticatorData = Buffer.concat([sha256(rpId), Buffer.from([USER_PRESENT | USER_VERIFIED]), uint32(credential.counter)]);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge);
    const signature = sign("sha256", Buffer.concat([authenticatorData, sha256(Buffer.from(clientDataJSON, "base64url"))]), credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      response: {
        clientDataJSON,
        authenticatorData: base64url(authenticatorData),
        signature: base64url(signature),
        userHandle: credential.userHandle,
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string): string {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false })).toString("base64url");
  }
}
