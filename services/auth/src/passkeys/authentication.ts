import { generateAuthenticationOptions, verifyAuthenticationResponse, type VerifiedAuthenticationResponse } from "@simplewebauthn/server";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { authError } from "../http/errors.js";
import { admitSignIn } from "../sessions/admission.js";
import { findCurrentSession } from "../sessions/current-session.js";
import { startSession } from "../sessions/issuance.js";
import { sessionJson } from "../sessions/output.js";
import { SessionWithUser } from "../sessions/schemas.js";
import { userJson } from "../users/output.js";
import { findUserById } from "../users/users.sql.js";
import { beginCeremony, takeChallenge } from "./challenges.js";
import { credentialDescriptor } from "./output.js";
import { advanceCounter, findPasskeyByCredentialId, listUserPasskeys } from "./passkeys.sql.js";
import { relyingParty } from "./relying-party.js";
import { AuthenticationOptions, AuthenticationVerification } from "./schemas.js";

/** Signing in with a passkey: a challenge for the browser, then its signed answer checked and a session begun. */
export function authenticationEndpoints(auth: Parts): Endpoint[] {
  const rp = relyingParty(auth.config);
  return [
    defineEndpoint(
      "/passkey/generate-authenticate-options",
      {
        method: "GET",
        response: AuthenticationOptions,
        summary: "Options for the browser to sign in with a passkey: any of the site's when signed out (autofill), the user's own when signed in",
        tag: "Passkey",
      },
      async ({ identity, req, res }) => {
        const current = await findCurrentSession(auth, identity, req);
        const own = current ? await listUserPasskeys(auth.db, current.user.id) : [];
        const options = await generateAuthenticationOptions({
          rpID: rp.id,
          userVerification: "preferred",
          ...(own.length > 0 ? { allowCredentials: own.map(credentialDescriptor) } : {}),
        });
        await beginCeremony(auth, res, { type: "authentication", expectedChallenge: options.challenge, userId: current?.user.id ?? "" });
        return options;
      },
    ),

    defineEndpoint(
      "/passkey/verify-authentication",
      {
        method: "POST",
        body: AuthenticationVerification,
        response: SessionWithUser,
        summary: "Check the browser's passkey answer against the challenge it was given and sign its owner in",
        tag: "Passkey",
      },
      async ({ body, req, res }) => {
        const ceremony = await takeChallenge(auth, req, "authentication");
        const passkey = await findPasskeyByCredentialId(auth.db, body.response.id);
        if (!passkey) throw authError(401, "PASSKEY_NOT_FOUND");
        let verification: VerifiedAuthenticationResponse;
        try {
          verification = await verifyAuthenticationResponse({
            response: body.response,
            expectedChallenge: ceremony.expectedChallenge,
            expectedOrigin: rp.origins,
            expectedRPID: rp.id,
            credential: { id: passkey.credential_id, publicKey: Buffer.from(passkey.public_key, "base64"), counter: passkey.counter },
            requireUserVerification: false,
          });
        } catch (error) {
          // A bad signature, another site's or an old challenge, or a counter gone backwards (a cloned authenticator or a replay).
          auth.logger.info({ err: error }, "a passkey sign-in failed its checks");
          throw authError(400, "AUTHENTICATION_FAILED");
        }
        if (!verification.verified) throw authError(401, "AUTHENTICATION_FAILED");
        const owner = await findUserById(auth.db, passkey.user_id);
        if (!owner) throw authError(401, "PASSKEY_NOT_FOUND");
        // A passkey is two factors at once (the device and its lock), so the sign-in goes no further than the rules every sign-in keeps.
        const user = await admitSignIn(auth, owner, req);
        return auth.units.run(async (unit) => {
          // Two sign-ins racing with one answer: only the first moves the counter on.
          if (!(await advanceCounter(unit.db, passkey.id, verification.authenticationInfo.newCounter))) throw authError(401, "AUTHENTICATION_FAILED");
          const { session, token } = await startSession(auth, unit.db, res, user, { req, persistent: true });
          return { session: sessionJson(session, token), user: userJson(user) };
        });
      },
    ),
  ];
}
