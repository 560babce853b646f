import { z } from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { userUpdated } from "@tollgate/proto";
import type { Parts } from "../parts.js";
import { findCredentialAccount, insertCredentialAccount, setAccountPassword } from "../credentials/credentials.sql.js";
import { assertPasswordLength } from "../credentials/password-policy.js";
import { authError } from "../http/errors.js";
import { SuccessAnswer } from "../http/schemas.js";
import { findCurrentSession } from "../sessions/current-session.js";
import { revokeSessions, startSession } from "../sessions/issuance.js";
import { sessionCacheOf } from "../sessions/output.js";
import { userEventData, userJson } from "../users/output.js";
import { ownerOfProvenEmail } from "../users/proven-email.js";
import { findUserByEmail, updateUser } from "../users/users.sql.js";
import { withCode } from "./codes.js";
import { mailCode } from "./mail.js";
import { CodeCheck, CodeEntry, CodePasswordReset, CodeRequest, CodeSignedIn, CodeSignIn, CodeVerifiedEmail, ResetCodeRequest } from "./schemas.js";

/** better-auth lower-cases the address, and refuses what is not one before it looks anything up. */
function addressIn(body: { email: string }): string {
  const email = body.email.toLowerCase();
  if (!z.email().safeParse(email).success) throw authError(400, "INVALID_EMAIL");
  return email;
}

export function emailOtpEndpoints(auth: Parts): Endpoint[] {
  const { config, passwords } = auth;

  const requestResetCode = (path: string, summary: string) =>
    defineEndpoint(path, { method: "POST", body: ResetCodeRequest, response: SuccessAnswer, summary, tag: "Email OTP" }, async ({ body, req }) => {
      await mailCode(auth, req, "forget-password", addressIn(body));
      return { success: true };
    });

  return [
    defineEndpoint(
      "/email-otp/send-verification-otp",
      {
        method: "POST",
        body: CodeRequest,
        response: SuccessAnswer,
        summary: "Mail a one-time code to sign in (signing up a new address), verify the address, or reset the password",
        tag: "Email OTP",
      },
      async ({ body, req }) => {
        await mailCode(auth, req, body.type, addressIn(body));
        return { success: true };
      },
    ),

    requestResetCode("/email-otp/request-password-reset", "Mail a one-time code that resets the password, if the address has an account"),
    // The path better-auth used before request-password-reset; older clients still call it.
    requestResetCode("/forget-password/email-otp", "The former name of email-otp/request-password-reset, kept for older clients"),

    defineEndpoint(
      "/email-otp/check-verification-otp",
      {
        method: "POST",
        body: CodeCheck,
        response: SuccessAnswer,
        summary: "Check a mailed code without using it up (a wrong one counts as a try)",
        tag: "Email OTP",
      },
      async ({ body }) => {
        const email = addressIn(body);
        await withCode(auth, { purpose: body.type, email, code: body.otp, keep: true }, async (unit) => {
          // Whoever holds the code read the mail, so telling them there is no account reveals nothing.
          if (!(await findUserByEmail(unit.db, email))) throw authError(400, "USER_NOT_FOUND");
        });
        return { success: true };
      },
    ),

    defineEndpoint(
      "/sign-in/email-otp",
      {
        method: "POST",
        body: CodeSignIn,
        response: CodeSignedIn,
        summary: "Sign in with a mailed code, verifying the address (signing up an address without an account)",
        tag: "Email OTP",
      },
      async ({ body, req, res }) => {
        const email = body.email.toLowerCase();
        const { user, token } = await withCode(auth, { purpose: "sign-in", email, code: body.otp }, async (unit) => {
          const { user } = await ownerOfProvenEmail(unit, { email, name: body.name, image: body.image });
          return { user, ...(await startSession(auth, unit.db, res, user, { req, persistent: true })) };
        });
        return { token, user: userJson(user) };
      },
    ),

    defineEndpoint(
      "/email-otp/verify-email",
      {
        method: "POST",
        body: CodeEntry,
        response: CodeVerifiedEmail,
        summary: "Verify an address with a mailed code",
        tag: "Email OTP",
      },
      async ({ body, identity, req, res }) => {
        const email = addressIn(body);
        const user = await withCode(auth, { purpose: "email-verification", email, code: body.otp }, async (unit) => {
          const found = await findUserByEmail(unit.db, email);
          if (!found) throw authError(400, "USER_NOT_FOUND");
          if (found.email_verified) return found;
          const verified = (await updateUser(unit.db, found.id, { email_verified: true })) ?? found;
          unit.announce(userUpdated, userEventData(verified));
          return verified;
        });
        // The user's own browser keeps no stale copy of them in its session_data cookie.
        const current = await findCurrentSession(auth, identity, req);
        if (current?.token && current.user.id === user.id) auth.cookies.issueCache(res, sessionCacheOf(current.session, current.token, user));
        return { status: true, token: null, user: userJson(user) };
      },
    ),

    defineEndpoint(
      "/email-otp/reset-password",
      {
        method: "POST",
        body: CodePasswordReset,
        response: SuccessAnswer,
        summary: "Set a new password with a mailed code, ending every session of the user",
        tag: "Email OTP",
      },
      async ({ body }) => {
        const email = addressIn(body);
        assertPasswordLength(config, body.password);
        const hash = await passwords.hash(body.password);
        await withCode(auth, { purpose: "forget-password", email, code: body.otp }, async (unit) => {
          const user = await findUserByEmail(unit.db, email);
          if (!user) throw authError(400, "USER_NOT_FOUND");
          const account = await findCredentialAccount(unit.db, user.id);
          if (account) await setAccountPassword(unit.db, account.id, hash);
          else await insertCredentialAccount(unit.db, user.id, hash);
          // Whoever knew the old password is signed out everywhere, as a reset by link does.
          await revokeSessions(unit, { userId: user.id });
          // The code came by mail: the address is the user's.
          if (!user.email_verified) {
            const verified = await updateUser(unit.db, user.id, { email_verified: true });
            if (verified) unit.announce(userUpdated, userEventData(verified));
          }
        });
        return { success: true };
      },
    ),
  ];
}
