import { setTimeout as sleep } from "node:timers/promises";
import type { Response } from "express";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import { userUpdated } from "@tollgate/proto";
import type { Parts } from "../parts.js";
import { assertTrustedRedirect, withQuery } from "../http/callback-url.js";
import { authError, type AuthErrorCode } from "../http/errors.js";
import { preferredLocale } from "../i18n/locales.js";
import { StatusAnswer } from "../http/schemas.js";
import { findCurrentSession } from "../sessions/current-session.js";
import { completeEmailChange } from "../users/change-email.js";
import { userEventData, userJson } from "../users/output.js";
import { findUserByEmail, updateUser } from "../users/users.sql.js";
import { EmailVerification, EmailVerified, VerificationMailRequest } from "./schemas.js";
import { sendVerificationMail } from "./send.js";
import { readVerificationToken } from "./tokens.js";

/**
 * Without a session, answering takes at least this long whether or not a mail is sent, so the
 * timing does not tell which addresses have unverified accounts.
 */
const ANONYMOUS_MINIMUM_MS = 500;

/**
 * better-auth sends the browser back to the callback with `error=<code>` added after any query it
 * has (before its fragment, a path kept a path), or answers 401 when there is no callback.
 */
function failVerification(res: Response, callbackURL: string | undefined, code: AuthErrorCode): void {
  if (!callbackURL) throw authError(401, code);
  res.redirect(302, withQuery(callbackURL, { error: code }));
}

export function verificationEndpoints(auth: Parts): Endpoint[] {
  const { config, db } = auth;
  return [
    defineEndpoint(
      "/send-verification-email",
      {
        method: "POST",
        body: VerificationMailRequest,
        response: StatusAnswer,
        summary: "Send (again) the link that verifies an e-mail address",
        tag: "Default",
      },
      async ({ body, identity, req }) => {
        assertTrustedRedirect(config, body.callbackURL);
        const email = body.email.toLowerCase();
        const current = await findCurrentSession(auth, identity, req);
        if (current) {
          if (current.user.email !== email) throw authError(400, "EMAIL_MISMATCH");
          if (current.user.email_verified) throw authError(400, "EMAIL_ALREADY_VERIFIED");
          await sendVerificationMail(auth, current.user, preferredLocale(current.user, req), body.callbackURL);
          return { status: true };
        }
        const started = Date.now();
        const user = await findUserByEmail(db, email);
        if (user && !user.email_verified) await sendVerificationMail(auth, user, preferredLocale(user, req), body.callbackURL);
        await sleep(Math.max(0, ANONYMOUS_MINIMUM_MS - (Date.now() - started)));
        return { status: true };
      },
    ),

    defineEndpoint(
      "/verify-email",
      {
        method: "GET",
        query: EmailVerification,
        // With a callbackURL the browser is sent there instead (with `error` added on failure).
        response: EmailVerified,
        summary: "Follow an e-mailed link: verify the address, or complete a change of address",
        tag: "Default",
      },
      async ({ query, identity, req, res }) => {
        assertTrustedRedirect(config, query.callbackURL);
        const claims = readVerificationToken(config.AUTH_SECRET, query.token);
        if (typeof claims === "string") return failVerification(res, query.callbackURL, claims);
        const { updateTo } = claims;
        if (updateTo) {
          const changed = await completeEmailChange(auth, { ...claims, updateTo }, await findCurrentSession(auth, identity, req), res);
          if (typeof changed === "string") return failVerification(res, query.callbackURL, changed);
          if (query.callbackURL) return res.redirect(302, query.callbackURL);
          return { status: true, user: userJson(changed) };
        }
        const user = await findUserByEmail(db, claims.email);
        if (!user) return failVerification(res, query.callbackURL, "USER_NOT_FOUND");
        // A token for an address the user no longer has (changed since) verifies nothing.
        if (user.id !== claims.userId) return failVerification(res, query.callbackURL, "INVALID_TOKEN");
        if (!user.email_verified) {
          await auth.units.run(async (unit) => {
            const verified = await updateUser(unit.db, user.id, { email_verified: true });
            if (verified) unit.announce(userUpdated, userEventData(verified));
          });
        }
        if (query.callbackURL) return res.redirect(302, query.callbackURL);
        return { status: true, user: null };
      },
    ),
  ];
}
