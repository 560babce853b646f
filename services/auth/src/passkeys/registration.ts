import { generateRegistrationOptions, verifyRegistrationResponse, type VerifiedRegistrationResponse } from "@simplewebauthn/server";
import { defineEndpoint, isUniqueViolation, randomId, type Endpoint } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { authError } from "../http/errors.js";
import { requireFreshSession } from "../sessions/current-session.js";
import { startSession } from "../sessions/issuance.js";
import { sessionJson } from "../sessions/output.js";
import { userJson } from "../users/output.js";
import { beginCeremony, takeChallenge } from "./challenges.js";
import { credentialDescriptor, passkeyJson } from "./output.js";
import { insertPasskey, listUserPasskeys } from "./passkeys.sql.js";
import { relyingParty } from "./relying-party.js";
import { Passkey, RegisteredPasskey, RegistrationOptions, RegistrationOptionsQuery, RegistrationVerification } from "./schemas.js";

/** Adding a passkey to the signed-in user's account: the options for the browser, then its answer checked and kept. */
export function registrationEndpoints(auth: Parts): Endpoint[] {
  const rp = relyingParty(auth.config);
  return [
    defineEndpoint(
      "/passkey/generate-register-options",
      {
        method: "GET",
        query: RegistrationOptionsQuery,
        response: RegistrationOptions,
        summary: "Options for the browser to create a passkey for the signed-in user (a recent sign-in needed)",
        tag: "Passkey",
      },
      async ({ query, identity, req, res }) => {
        const { user } = await requireFreshSession(auth, identity, req);
        const existing = await listUserPasskeys(auth.db, user.id);
        const options = await generateRegistrationOptions({
          rpName: rp.name,
          rpID: rp.id,
          // A random handle, not the user's id: the authenticator keeps it and shows it to anyone holding the device.
          userID: new TextEncoder().encode(randomId(32)),
          userName: query.name || user.email,
          userDisplayName: user.email,
          attestationType: "none",
          // The browser refuses to make a second passkey on an authenticator that holds one of these already.
          excludeCredentials: existing.map(credentialDescriptor),
          authenticatorSelection: {
            residentKey: "preferred",
            userVerification: "preferred",
            ...(query.authenticatorAttachment ? { authenticatorAttachment: query.authenticatorAttachment } : {}),
          },
        });
        await beginCeremony(auth, res, { type: "registration", expectedChallenge: options.challenge, userId: user.id });
        return options;
      },
    ),

    defineEndpoint(
      "/passkey/verify-registration",
      {
        method: "POST",
        body: RegistrationVerification,
        response: Passkey.or(RegisteredPasskey),
        summary: "Check the browser's new passkey against the challenge it was given and add it to the signed-in user's account",
        tag: "Passkey",
      },
      async ({ body, identity, req, res }) => {
        const current = await requireFreshSession(auth, identity, req);
        const ceremony = await takeChallenge(auth, req, "registration");
        if (ceremony.userId !== current.user.id) throw authError(401, "YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY");
        let verification: VerifiedRegistrationResponse;
        try {
          verification = await verifyRegistrationResponse({
            response: body.response,
            expectedChallenge: ceremony.expectedChallenge,
            expectedOrigin: rp.origins,
            expectedRPID: rp.id,
            requireUserVerification: false,
          });
        } catch (error) {
          auth.logger.info({ err: error }, "a passkey registration failed its checks");
          throw authError(400, "FAILED_TO_VERIFY_REGISTRATION");
        }
        const { verified, registrationInfo } = verification;
        if (!verified || !registrationInfo) throw authError(400, "FAILED_TO_VERIFY_REGISTRATION");
        const { credential } = registrationInfo;
        try {
          return await auth.units.run(async (unit) => {
            const passkey = await insertPasskey(unit.db, {
              user_id: current.user.id,
              name: body.name || null,
              credential_id: credential.id,
              public_key: Buffer.from(credential.publicKey).toString("base64"),
              counter: credential.counter,
              device_type: registrationInfo.credentialDeviceType,
              backed_up: registrationInfo.credentialBackedUp,
              transports: body.response.response.transports?.join(",") ?? "",
              aaguid: registrationInfo.aaguid,
            });
            if (!body.createSession) return passkeyJson(passkey);
            const { session, token } = await startSession(auth, unit.db, res, current.user, { req, persistent: true });
            return { ...passkeyJson(passkey), session: sessionJson(session, token), user: userJson(current.user) };
          });
        } catch (error) {
          // The credential is registered already (to this account or another): it cannot belong twice.
          if (isUniqueViolation(error)) throw authError(400, "FAILED_TO_VERIFY_REGISTRATION");
          throw error;
        }
      },
    ),
  ];
}
